package io.kindling.infra.bench;

import java.nio.file.Path;
import java.util.List;

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

	/** Every Redis process of this mode. */
	List<Long> pids();

	/** A client for the bench's own commands; closed with this. */
	UnifiedJedis client();

	@Override
	void close();

	/** How to run Redis; another mode is one more constant and one more class. */
	enum Mode {

		/** One {@code redis-server}. */
		STANDALONE {
			@Override
			BenchRedis start(Path dir) {
				return StandaloneRedis.start(dir);
			}
		};

		abstract BenchRedis start(Path dir);

	}

}
