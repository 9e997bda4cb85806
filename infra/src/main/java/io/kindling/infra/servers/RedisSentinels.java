package io.kindling.infra.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;

/**
 * A Redis primary with one replica and three Sentinels (quorum two) on loopback, as
 * {@code spring.data.redis.sentinel.*} expects. Nodes can be killed, paused and
 * restarted, and a test can wait for the Sentinels to promote the replica.
 */
public final class RedisSentinels implements AutoCloseable {

	public static final String MASTER_NAME = "kindling";

	/**
	 * How long the primary may be silent before a Sentinel calls it down; then the three
	 * agree and fail over within a few seconds.
	 */
	public static final Duration DOWN_AFTER = Duration.ofMillis(2_000);

	private final Path workDir;

	private final RedisServer first;

	private final RedisServer second;

	private final List<SentinelServer> sentinels = new ArrayList<>();

	public RedisSentinels(Path workDir) {
		this.workDir = workDir;
		int firstPort = FreePorts.pick();
		this.first = new RedisServer(workDir.resolve("redis-" + firstPort), firstPort);
		int secondPort = FreePorts.pick();
		this.second = new RedisServer(workDir.resolve("redis-" + secondPort), secondPort,
				List.of("--replicaof", "127.0.0.1", String.valueOf(firstPort)));
		for (int i = 0; i < 3; i++) {
			int port = FreePorts.pick();
			this.sentinels
				.add(new SentinelServer(workDir.resolve("sentinel-" + port), port, MASTER_NAME, firstPort, DOWN_AFTER));
		}
	}

	public synchronized void start() {
		this.first.start();
		this.second.start();
		this.sentinels.forEach(SentinelServer::start);
		awaitHealthy(Duration.ofSeconds(60));
	}

	/** {@code host:port,...} as {@code spring.data.redis.sentinel.nodes} takes it. */
	public String sentinelNodes() {
		return this.sentinels.stream().map((node) -> "127.0.0.1:" + node.port()).collect(Collectors.joining(","));
	}

	public String masterName() {
		return MASTER_NAME;
	}

	/** The node the Sentinels now name as primary. */
	public RedisServer primary() {
		int port = primaryPort();
		return (this.first.port() == port) ? this.first : this.second;
	}

	/** The other node: the replica, or the failed primary. */
	public RedisServer replica() {
		return (primary() == this.first) ? this.second : this.first;
	}

	/**
	 * Makes the replica miss every write the primary takes from now on: it is frozen
	 * ({@code SIGSTOP}) and the primary drops the replication link, so nothing more
	 * reaches it even through socket buffers. {@link ProcessSignals#resume} thaws it.
	 */
	public void missWrites() {
		RedisServer replica = replica();
		ProcessSignals.pause(replica);
		try (Jedis jedis = connect(primary().port())) {
			jedis.sendCommand(Protocol.Command.CLIENT, "KILL", "TYPE", "replica");
		}
	}

	/** Waits until the Sentinels name this node primary and it acts as one. */
	public void awaitPromoted(RedisServer node, Duration timeout) {
		FreePorts.await("sentinels promote " + node.port(), timeout, () -> {
			try (Jedis jedis = connect(node.port())) {
				return primaryPort() == node.port() && "master".equals(role(jedis));
			}
			catch (RuntimeException ex) {
				return false;
			}
		});
	}

	/**
	 * Thaws a frozen node, restarts a node that is not running as a replica of the
	 * primary the Sentinels name, and waits until it is in sync.
	 */
	public synchronized void heal(Duration timeout) {
		for (RedisServer node : List.of(this.first, this.second)) {
			if (node.isRunning()) {
				ProcessSignals.resume(node);
			}
			else {
				node.start();
				replicate(node);
			}
		}
		awaitHealthy(timeout);
	}

	/**
	 * Makes a node the Sentinels do not name primary (a failed primary started again)
	 * replicate the one they do, as they would themselves, only sooner: they leave a node
	 * that comes back claiming to be a primary alone for a while before they convert it
	 * (tried by hand with these settings, 16.6 s from its restart to in sync, against 0.2
	 * s for a node started as a replica). No client of theirs is sent to it meanwhile.
	 */
	private void replicate(RedisServer node) {
		int primaryPort = primaryPort();
		if (primaryPort != node.port()) {
			try (Jedis jedis = connect(node.port())) {
				jedis.replicaof("127.0.0.1", primaryPort);
			}
		}
	}

	private void awaitHealthy(Duration timeout) {
		// what was still missing at the last look, for the message of a timeout
		AtomicReference<String> missing = new AtomicReference<>("nothing looked at yet");
		try {
			FreePorts.await("a primary with an in-sync replica and three sentinels", timeout, () -> {
				String lacking = lacking();
				missing.set(lacking);
				return lacking.isEmpty();
			});
		}
		catch (IllegalStateException ex) {
			throw new IllegalStateException(ex.getMessage() + "; last missing: " + missing.get() + "; " + logTails(),
					ex);
		}
	}

	/** What keeps the set from being healthy, or empty when nothing does. */
	private String lacking() {
		try {
			RedisServer primary = primary();
			RedisServer replica = replica();
			try (Jedis toPrimary = connect(primary.port()); Jedis toReplica = connect(replica.port())) {
				if (!"master".equals(role(toPrimary))) {
					return primary.port() + " named primary is " + role(toPrimary);
				}
				String replication = toReplica.info("replication");
				if (!"slave".equals(role(toReplica)) || !replication.contains("master_port:" + primary.port())
						|| !replication.contains("master_link_status:up")) {
					return "replica " + replica.port() + " not in sync: "
							+ replication.lines()
								.filter((line) -> line.startsWith("role:") || line.startsWith("master_port:")
										|| line.startsWith("master_link_status:"))
								.collect(Collectors.joining(" "));
				}
				return sentinelLacking(primary.port());
			}
		}
		catch (RuntimeException ex) {
			return ex.toString();
		}
	}

	private String sentinelLacking(int primaryPort) {
		for (SentinelServer sentinel : this.sentinels) {
			try (Jedis jedis = connect(sentinel.port())) {
				List<String> address = jedis.sentinelGetMasterAddrByName(MASTER_NAME);
				if (address == null || Integer.parseInt(address.get(1)) != primaryPort) {
					return "sentinel " + sentinel.port() + " names " + address + " primary";
				}
				// each must know the replica and the other two sentinels before a
				// failover can be agreed
				if (jedis.sentinelReplicas(MASTER_NAME).isEmpty()) {
					return "sentinel " + sentinel.port() + " knows no replica yet";
				}
				if (jedis.sentinelSentinels(MASTER_NAME).size() < 2) {
					return "sentinel " + sentinel.port() + " knows " + jedis.sentinelSentinels(MASTER_NAME).size()
							+ " other sentinel(s)";
				}
			}
		}
		return "";
	}

	/**
	 * The last lines each node logged: a port another process took, a sync that failed.
	 */
	private String logTails() {
		List<ServerProcess> nodes = new ArrayList<>(List.of(this.first, this.second));
		nodes.addAll(this.sentinels);
		return nodes.stream().map((node) -> {
			try {
				List<String> lines = Files.readAllLines(node.logFile());
				return node.logFile().getFileName() + " in " + node.workDir.getFileName() + ": "
						+ String.join(" | ", lines.subList(Math.max(0, lines.size() - 3), lines.size()));
			}
			catch (IOException | UncheckedIOException ex) {
				return node.logFile() + " unreadable: " + ex;
			}
		}).collect(Collectors.joining("; "));
	}

	private int primaryPort() {
		RuntimeException last = null;
		for (SentinelServer sentinel : this.sentinels) {
			try (Jedis jedis = connect(sentinel.port())) {
				return Integer.parseInt(jedis.sentinelGetMasterAddrByName(MASTER_NAME).get(1));
			}
			catch (RuntimeException ex) {
				last = ex;
			}
		}
		throw new IllegalStateException("no sentinel answers", last);
	}

	private static String role(Jedis jedis) {
		List<?> role = (List<?>) jedis.sendCommand(Protocol.Command.ROLE);
		Object first = role.get(0);
		return (first instanceof byte[] bytes) ? new String(bytes) : String.valueOf(first);
	}

	private static Jedis connect(int port) {
		return new Jedis("127.0.0.1", port, 1_000);
	}

	@Override
	public synchronized void close() {
		this.sentinels.forEach(SentinelServer::close);
		for (RedisServer node : List.of(this.first, this.second)) {
			try {
				if (node.isRunning()) {
					ProcessSignals.resume(node);
				}
			}
			catch (RuntimeException ex) {
				// it is going away anyway
			}
			node.close();
		}
		ServerProcess.deleteRecursively(this.workDir);
	}

}
