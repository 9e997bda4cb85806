package io.kindling.infra.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.kindling.infra.servers.FreePorts;
import io.kindling.infra.servers.JvmOptions;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;

/**
 * Three (or more) Kafka nodes on loopback, each broker and controller at once, with one
 * controller quorum of all of them, each with its own ports, data dir and log. Internal
 * topics and topics created without a replication factor get 3 replicas and
 * {@code min.insync.replicas} 2. A node can be killed ({@code kill -9}) and restarted, as
 * a crash and a recovery would.
 *
 * <p>
 * Every node is also a controller: two nodes down lose the quorum, and the survivor can
 * then neither move leaders nor shrink in-sync sets. One down is what it is built for.
 * Its nodes are for tests, and start as {@link JvmOptions#QUICK_START}.
 */
public final class KafkaCluster implements AutoCloseable {

	private static final Duration READY = Duration.ofSeconds(90);

	private final Path workDir;

	private final List<KafkaBroker> nodes;

	public KafkaCluster(Path workDir, List<KafkaNode> quorum, int partitions) {
		if (quorum.size() < 3) {
			throw new IllegalArgumentException("a cluster here has at least 3 nodes, not " + quorum.size());
		}
		this.workDir = workDir;
		String clusterId = clusterId(workDir);
		this.nodes = quorum.stream()
			.map((node) -> new KafkaBroker(workDir.resolve("node-" + node.id()), node, quorum, clusterId, partitions,
					JvmOptions.QUICK_START))
			.toList();
	}

	/** A cluster of {@code size} nodes (ids 1 to size) on free loopback ports. */
	public static KafkaCluster onFreePorts(Path workDir, int size, int partitions) {
		Set<Integer> ports = new java.util.LinkedHashSet<>();
		while (ports.size() < 2 * size) {
			ports.add(FreePorts.pick());
		}
		List<Integer> distinct = List.copyOf(ports);
		List<KafkaNode> quorum = new ArrayList<>();
		for (int id = 1; id <= size; id++) {
			quorum.add(new KafkaNode(id, distinct.get(2 * id - 2), distinct.get(2 * id - 1)));
		}
		return new KafkaCluster(workDir, quorum, partitions);
	}

	/**
	 * The id every node's storage is formatted with, kept in the work dir so that a dir
	 * formatted by an earlier run is started with the id it has.
	 */
	private static String clusterId(Path workDir) {
		Path file = workDir.resolve("cluster-id");
		try {
			if (Files.exists(file)) {
				return Files.readString(file).strip();
			}
			Files.createDirectories(workDir);
			String id = Uuid.randomUuid().toString();
			Files.writeString(file, id);
			return id;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Starts every node that is not running, all at once (a node alone has no quorum to
	 * join), and returns when every broker is registered and unfenced.
	 */
	public void start() {
		List<CompletableFuture<Void>> starting = this.nodes.stream()
			.filter((node) -> !node.isRunning())
			.map((node) -> CompletableFuture.runAsync(node::start, (task) -> Thread.ofPlatform().start(task)))
			.toList();
		try {
			CompletableFuture.allOf(starting.toArray(CompletableFuture[]::new)).get();
		}
		catch (ExecutionException ex) {
			throw new IllegalStateException("a Kafka node did not start", ex.getCause());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		awaitBrokers(nodeIds(), READY);
	}

	public String bootstrapServers() {
		return this.nodes.stream().map(KafkaBroker::bootstrapServers).collect(Collectors.joining(","));
	}

	public List<KafkaBroker> nodes() {
		return this.nodes;
	}

	public KafkaBroker node(int id) {
		return this.nodes.stream()
			.filter((node) -> node.nodeId() == id)
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException("no Kafka node " + id));
	}

	/** The replication factor the cluster gives its internal and default topics. */
	public int replicationFactor() {
		return Math.min(3, this.nodes.size());
	}

	/** The {@code min.insync.replicas} the cluster gives its topics by default. */
	public int minInsyncReplicas() {
		return replicationFactor() - 1;
	}

	/**
	 * Ends node {@code id} with SIGKILL, as a crash would, and returns once its process
	 * is gone. The others notice when its heartbeats stop (about 3 s).
	 */
	public void kill(int id) {
		node(id).kill();
	}

	/**
	 * Starts node {@code id} again on its own data dir and returns when the cluster lists
	 * it as a live broker; its replicas then catch up ({@link #awaitFullyReplicated}).
	 */
	public void restart(int id) {
		node(id).start();
		awaitBrokers(nodeIds(), READY);
	}

	/** The ids of the brokers the cluster's controller counts as alive (unfenced). */
	public Set<Integer> liveBrokers() {
		try (Admin admin = admin()) {
			return admin.describeCluster()
				.nodes()
				.get(5, TimeUnit.SECONDS)
				.stream()
				.map(Node::id)
				.collect(Collectors.toCollection(TreeSet::new));
		}
		catch (Exception ex) {
			return Set.of();
		}
	}

	/** Waits until exactly these brokers are alive. */
	public void awaitBrokers(Set<Integer> ids, Duration timeout) {
		FreePorts.await("Kafka brokers " + ids + " alive (and no others)", timeout,
				() -> liveBrokers().equals(new TreeSet<>(ids)));
	}

	/** Partition number to its leader's node id (-1 while it has none). */
	public Map<Integer, Integer> leaders(String topic) {
		Map<Integer, Integer> leaders = new TreeMap<>();
		for (TopicPartitionInfo partition : describe(topic).partitions()) {
			Node leader = partition.leader();
			leaders.put(partition.partition(), (leader == null || leader.isEmpty()) ? -1 : leader.id());
		}
		return leaders;
	}

	public TopicDescription describe(String topic) {
		try (Admin admin = admin()) {
			return admin.describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS).get(topic);
		}
		catch (Exception ex) {
			throw new IllegalStateException("could not describe " + topic, ex);
		}
	}

	/**
	 * Waits until every replica of every topic (internal ones included) is in sync again,
	 * as after a restarted node has caught up.
	 */
	public void awaitFullyReplicated(Duration timeout) {
		try (Admin admin = admin()) {
			FreePorts.await("every Kafka replica in sync", timeout, () -> fullyReplicated(admin));
		}
	}

	/**
	 * Whether every partition of every topic (internal ones included) has a leader and
	 * all its replicas in sync, as a cluster reached through {@code admin} reports it;
	 * false when it does not answer.
	 */
	public static boolean fullyReplicated(Admin admin) {
		try {
			Set<String> topics = admin.listTopics(new ListTopicsOptions().listInternal(true))
				.names()
				.get(5, TimeUnit.SECONDS);
			return admin.describeTopics(topics)
				.allTopicNames()
				.get(5, TimeUnit.SECONDS)
				.values()
				.stream()
				.flatMap((topic) -> topic.partitions().stream())
				.allMatch((partition) -> partition.leader() != null && !partition.leader().isEmpty()
						&& partition.isr().size() == partition.replicas().size());
		}
		catch (Exception ex) {
			return false;
		}
	}

	/** An admin client that reaches the cluster through any live node; close it. */
	public Admin admin() {
		return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
				AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 3000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
				5000));
	}

	private Set<Integer> nodeIds() {
		return this.nodes.stream().map(KafkaBroker::nodeId).collect(Collectors.toSet());
	}

	/** Stops every node gracefully, all at once, keeping their data. */
	public void stop() {
		CompletableFuture
			.allOf(this.nodes.stream()
				.map((node) -> CompletableFuture.runAsync(node::stop, (task) -> Thread.ofPlatform().start(task)))
				.toArray(CompletableFuture[]::new))
			.join();
	}

	/** Kills every node and removes the cluster's data: it was throwaway. */
	@Override
	public void close() {
		this.nodes.forEach(KafkaBroker::kill);
		this.nodes.forEach(KafkaBroker::close);
		try {
			Files.deleteIfExists(this.workDir.resolve("cluster-id"));
			Files.deleteIfExists(this.workDir);
		}
		catch (IOException ex) {
			// a leftover empty dir is harmless
		}
	}

}
