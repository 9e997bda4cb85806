package io.kindling.infra.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.UnifiedJedis;

/**
 * The Redis a bench stack runs, in one of the modes {@code --redis} chooses. A mode tells
 * a service how to connect (Spring's own {@code spring.data.redis.*} properties, as
 * standalone, Sentinel and Cluster each take them), which processes it runs (for CPU
 * accounting), and gives the bench a client of its own ({@link UnifiedJedis}: a pooled
 * standalone client and a cluster client alike).
 */
public interface BenchRedis extends AutoCloseable {

	/** Settings a service connects with, as {@code --name=value}. */
	List<String> serviceSettings();

	/** Every Redis server process of this mode. */
	List<Long> pids();

	/** The port of every Redis server of this mode, primaries and replicas. */
	List<Integer> ports();

	/** A client for the bench's own commands; closed with this. */
	UnifiedJedis client();

	/**
	 * Commands the primaries have run so far, those that scripts call included: the
	 * replicas' copies of the writes are not counted, so every mode counts the same work.
	 */
	default long commandsProcessed() {
		long commands = 0;
		for (int port : ports()) {
			try (Jedis jedis = new Jedis("127.0.0.1", port, 2_000)) {
				if (!jedis.info("replication").contains("role:master")) {
					continue;
				}
				for (String line : jedis.info("stats").split("\r?\n")) {
					if (line.startsWith("total_commands_processed:")) {
						commands += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
					}
				}
			}
			catch (RuntimeException ex) {
				// a node that is down has run nothing more
			}
		}
		return commands;
	}

	/**
	 * Kills the primary with SIGKILL and returns once its replica serves in its place.
	 * With {@code missWrites} positive, the replica first stops receiving writes (it is
	 * frozen and cut off) for that long, so the promoted replica lacks every write of
	 * those last moments. Only a mode with a replica can.
	 */
	default Failover failOver(Duration missWrites, Duration timeout) throws InterruptedException {
		throw new UnsupportedOperationException("this Redis has no replica to fail over to");
	}

	/**
	 * When a {@link #failOver} happened, as {@link System#nanoTime()}: the replica
	 * stopped receiving writes, the primary was killed, the replica was promoted.
	 */
	record Failover(long replicaCutOff, long primaryKilled, long replicaPromoted, int killedPort, int promotedPort) {

	}

	@Override
	void close();

	/** Starts the servers of a mode, closing whatever of them started if they cannot. */
	static <T> T startOrClose(T servers, Consumer<T> start, Consumer<T> close) {
		try {
			start.accept(servers);
			return servers;
		}
		catch (RuntimeException ex) {
			close.accept(servers);
			throw ex;
		}
	}

	/** How to run Redis; another mode is one more constant and one more class. */
	enum Mode {

		/** One {@code redis-server}. */
		STANDALONE {
			@Override
			BenchRedis start(Path dir) {
				return StandaloneRedis.start(dir);
			}
		},

		/** Three primaries and three replicas, hash slots shared among the primaries. */
		CLUSTER {
			@Override
			BenchRedis start(Path dir) {
				return ClusterRedis.start(dir);
			}
		},

		/** A primary, a replica and three Sentinels that fail it over. */
		SENTINEL {
			@Override
			BenchRedis start(Path dir) {
				return SentinelRedis.start(dir);
			}
		};

		abstract BenchRedis start(Path dir);

	}

}
