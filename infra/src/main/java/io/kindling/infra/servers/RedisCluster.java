package io.kindling.infra.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * A real Redis Cluster on loopback: three primaries and three replicas, each a
 * {@code redis-server --cluster-enabled yes} process, joined by
 * {@code redis-cli --cluster create --cluster-replicas 1}. Nodes can be killed, paused
 * and restarted, and a test can wait for a replica's promotion.
 */
public final class RedisCluster implements AutoCloseable {

	/**
	 * How long a node may be silent before the others fail it over. Short, so that a
	 * failover test takes seconds; not so short that a busy two-core machine fails over a
	 * healthy node.
	 */
	public static final Duration NODE_TIMEOUT = Duration.ofMillis(2_000);

	private static final int NODES = 6;

	/** The cluster bus listens on port + 10000. */
	private static final int BUS_OFFSET = 10_000;

	private final Path workDir;

	private final List<RedisServer> nodes = new ArrayList<>();

	public RedisCluster(Path workDir) {
		this.workDir = workDir;
		for (int i = 0; i < NODES; i++) {
			int port = FreePorts.pick(BUS_OFFSET);
			this.nodes.add(new RedisServer(workDir.resolve("node-" + port), port,
					List.of("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-node-timeout",
							String.valueOf(NODE_TIMEOUT.toMillis()),
							// a replica that was paused or cut off may still be promoted:
							// the
							// failover tests make exactly that replica miss writes
							"--cluster-replica-validity-factor", "0")));
		}
	}

	public synchronized void start() {
		this.nodes.forEach(RedisServer::start);
		List<String> create = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
		this.nodes.forEach((node) -> create.add("127.0.0.1:" + node.port()));
		create.addAll(List.of("--cluster-replicas", "1", "--cluster-yes"));
		try {
			Files.createDirectories(this.workDir);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		ServerProcess.run(create, this.workDir.resolve("cluster-create.log"));
		awaitHealthy(Duration.ofSeconds(60));
	}

	/** {@code host:port,...} as {@code spring.data.redis.cluster.nodes} takes it. */
	public String nodes() {
		return this.nodes.stream().map((node) -> "127.0.0.1:" + node.port()).collect(Collectors.joining(","));
	}

	public List<RedisServer> servers() {
		return List.copyOf(this.nodes);
	}

	/** The primaries now serving slots. */
	public List<RedisServer> primaries() {
		return topology().stream()
			.filter((node) -> node.primary() && !node.failed() && !node.slots().isEmpty())
			.map((node) -> server(node.port()))
			.toList();
	}

	/** The primary now serving the slot of this key. */
	public RedisServer primaryFor(String key) {
		int slot = JedisClusterCRC16.getSlot(key);
		for (Node node : topology()) {
			if (node.primary() && !node.failed() && node.serves(slot)) {
				return server(node.port());
			}
		}
		throw new IllegalStateException("no live primary serves slot " + slot);
	}

	/** The replica of a primary, as the cluster now sees it. */
	public RedisServer replicaOf(RedisServer primary) {
		List<Node> topology = topology();
		String primaryId = topology.stream()
			.filter((node) -> node.port() == primary.port())
			.findFirst()
			.orElseThrow()
			.id();
		return topology.stream()
			.filter((node) -> primaryId.equals(node.primaryId()) && !node.failed())
			.findFirst()
			.map((node) -> server(node.port()))
			.orElseThrow(() -> new IllegalStateException(primary.port() + " has no live replica"));
	}

	/**
	 * Makes the replica miss every write its primary takes from now on: it is frozen
	 * ({@code SIGSTOP}) and its primary drops the replication link, so nothing more
	 * reaches it even through socket buffers. {@link ProcessSignals#resume} thaws it.
	 */
	public void missWrites(RedisServer replica) {
		RedisServer primary = primaryOfReplica(replica);
		ProcessSignals.pause(replica);
		try (Jedis jedis = connect(primary)) {
			jedis.sendCommand(Protocol.Command.CLIENT, "KILL", "TYPE", "replica");
		}
	}

	/** Waits until the replica has been promoted and the cluster serves every slot. */
	public void awaitPromoted(RedisServer replica, Duration timeout) {
		FreePorts.await("node " + replica.port() + " promoted", timeout, () -> {
			try (Jedis jedis = connect(replica)) {
				return "master".equals(role(jedis)) && jedis.clusterInfo().contains("cluster_state:ok");
			}
			catch (RuntimeException ex) {
				return false;
			}
		});
	}

	/**
	 * Thaws every frozen node and restarts every node that is not running (it rejoins as
	 * a replica and copies its primary's data), then waits until all six agree and every
	 * replica is in sync.
	 */
	public synchronized void heal(Duration timeout) {
		for (RedisServer node : this.nodes) {
			if (node.isRunning()) {
				ProcessSignals.resume(node);
			}
			else {
				node.start();
			}
		}
		awaitHealthy(timeout);
	}

	private void awaitHealthy(Duration timeout) {
		FreePorts.await("a healthy redis cluster", timeout, this::healthy);
	}

	private boolean healthy() {
		for (RedisServer node : this.nodes) {
			try (Jedis jedis = connect(node)) {
				if (!jedis.clusterInfo().contains("cluster_state:ok")) {
					return false;
				}
				List<Node> seen = parse(jedis.clusterNodes());
				if (seen.size() != NODES || seen.stream().anyMatch(Node::failed)
						|| seen.stream().filter(Node::primary).count() != NODES / 2) {
					return false;
				}
				if (!"master".equals(role(jedis)) && !jedis.info("replication").contains("master_link_status:up")) {
					return false;
				}
			}
			catch (RuntimeException ex) {
				return false;
			}
		}
		return true;
	}

	private RedisServer primaryOfReplica(RedisServer replica) {
		List<Node> topology = topology();
		Node self = topology.stream().filter((node) -> node.port() == replica.port()).findFirst().orElseThrow();
		return topology.stream()
			.filter((node) -> node.id().equals(self.primaryId()))
			.findFirst()
			.map((node) -> server(node.port()))
			.orElseThrow(() -> new IllegalStateException(replica.port() + " is not a replica"));
	}

	private List<Node> topology() {
		for (RedisServer node : this.nodes) {
			if (!node.isRunning()) {
				continue;
			}
			try (Jedis jedis = connect(node)) {
				return parse(jedis.clusterNodes());
			}
			catch (RuntimeException ex) {
				// paused or going away: ask the next
			}
		}
		throw new IllegalStateException("no cluster node answers");
	}

	private RedisServer server(int port) {
		return this.nodes.stream()
			.filter((node) -> node.port() == port)
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("no node on port " + port));
	}

	private static String role(Jedis jedis) {
		List<?> role = (List<?>) jedis.sendCommand(Protocol.Command.ROLE);
		Object first = role.get(0);
		return (first instanceof byte[] bytes) ? new String(bytes) : String.valueOf(first);
	}

	private static Jedis connect(RedisServer node) {
		return new Jedis("127.0.0.1", node.port(), 1_000);
	}

	private static List<Node> parse(String clusterNodes) {
		List<Node> nodes = new ArrayList<>();
		for (String line : clusterNodes.split("\n")) {
			String[] fields = line.trim().split(" ");
			if (fields.length < 8) {
				continue;
			}
			String address = fields[1].substring(0, fields[1].indexOf('@'));
			int port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
			List<String> flags = List.of(fields[2].split(","));
			List<int[]> slots = new ArrayList<>();
			for (int i = 8; i < fields.length; i++) {
				if (fields[i].startsWith("[")) {
					continue; // a slot being migrated
				}
				String[] range = fields[i].split("-");
				int from = Integer.parseInt(range[0]);
				slots.add(new int[] { from, (range.length > 1) ? Integer.parseInt(range[1]) : from });
			}
			nodes.add(new Node(fields[0], port, flags.contains("master"),
					flags.contains("fail") || flags.contains("fail?"), fields[3].equals("-") ? "" : fields[3], slots));
		}
		return nodes;
	}

	@Override
	public synchronized void close() {
		for (RedisServer node : this.nodes) {
			try {
				if (node.isRunning()) {
					// a frozen node would ignore SIGTERM until thawed
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

	private record Node(String id, int port, boolean primary, boolean failed, String primaryId, List<int[]> slots) {

		boolean serves(int slot) {
			return this.slots.stream().anyMatch((range) -> range[0] <= slot && slot <= range[1]);
		}

	}

}
