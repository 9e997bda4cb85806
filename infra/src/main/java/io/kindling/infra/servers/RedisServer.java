package io.kindling.infra.servers;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import redis.clients.jedis.Jedis;

/**
 * A real {@code redis-server} on a loopback port, with no persistence. Set
 * {@code KINDLING_REDIS_SERVER} to use another binary (for example Redis 8, which has the
 * Bloom commands built in) and {@code KINDLING_REDIS_MODULE} to load a module such as
 * RedisBloom.
 */
public final class RedisServer extends ServerProcess {

	private static final Pattern MASTER_OFFSET = Pattern.compile("master_repl_offset:(\\d+)");

	/** {@code slave0:ip=127.0.0.1,port=…,state=online,offset=…,lag=…} */
	private static final Pattern REPLICA_OFFSET = Pattern.compile("slave\\d+:[^\\r\\n]*state=online,offset=(\\d+)");

	private final int port;

	private final List<String> options;

	public RedisServer(Path workDir, int port) {
		this(workDir, port, List.of());
	}

	/**
	 * @param options more {@code --name value} options, for example those of a cluster
	 * node or a replica
	 */
	public RedisServer(Path workDir, int port, List<String> options) {
		super("redis", workDir);
		this.port = port;
		this.options = List.copyOf(options);
	}

	public int port() {
		return this.port;
	}

	/**
	 * Waits until each replica of this primary has acknowledged every write the primary
	 * took so far, from any connection. {@code WAIT} cannot tell that: it counts only the
	 * writes of the connection that sends it, so on a fresh connection it returns at
	 * once.
	 */
	public void awaitReplicated(Duration timeout) {
		awaitReplicated(this.port, timeout);
	}

	/** As {@link #awaitReplicated(Duration)}, for a primary on this loopback port. */
	public static void awaitReplicated(int port, Duration timeout) {
		long written;
		try (Jedis jedis = new Jedis("127.0.0.1", port, 1_000)) {
			written = field(jedis.info("replication"), MASTER_OFFSET);
		}
		FreePorts.await("the replicas of " + port + " at offset " + written, timeout, () -> {
			try (Jedis jedis = new Jedis("127.0.0.1", port, 1_000)) {
				Matcher replicas = REPLICA_OFFSET.matcher(jedis.info("replication"));
				boolean any = false;
				while (replicas.find()) {
					any = true;
					if (Long.parseLong(replicas.group(1)) < written) {
						return false;
					}
				}
				return any;
			}
			catch (RuntimeException ex) {
				return false;
			}
		});
	}

	private static long field(String info, Pattern pattern) {
		Matcher matcher = pattern.matcher(info);
		if (!matcher.find()) {
			throw new IllegalStateException("no " + pattern + " in " + info);
		}
		return Long.parseLong(matcher.group(1));
	}

	@Override
	protected List<String> command() {
		List<String> command = new ArrayList<>(List.of(binary(), "--port", String.valueOf(this.port), "--bind",
				"127.0.0.1", "--dir", this.workDir.toString(), "--save", "", "--appendonly", "no", "--daemonize", "no",
				"--protected-mode", "no"));
		command.addAll(this.options);
		String module = System.getenv("KINDLING_REDIS_MODULE");
		if (module != null && !module.isBlank()) {
			command.addAll(List.of("--loadmodule", module));
		}
		return command;
	}

	private static String binary() {
		String configured = System.getenv("KINDLING_REDIS_SERVER");
		return (configured != null && !configured.isBlank()) ? configured : "redis-server";
	}

	@Override
	protected void awaitReady() {
		awaitWhileRunning("redis on port " + this.port, Duration.ofSeconds(20), () -> FreePorts.isOpen(this.port));
	}

}
