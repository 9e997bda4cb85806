package io.kindling.infra.kafka;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import io.kindling.infra.servers.FreePorts;
import io.kindling.infra.servers.JvmOptions;
import io.kindling.infra.servers.ServerProcess;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * A KRaft Kafka node (broker and controller in one) in its own JVM, run from the
 * {@code kafka_2.13} jars that the infra build copies to {@code infra/target/kafka-libs}.
 * Alone it is the one-node stack; three of them with one quorum are a
 * {@link KafkaCluster}. Storage is formatted once per dir.
 */
public final class KafkaBroker extends ServerProcess {

	private final KafkaNode node;

	private final List<KafkaNode> quorum;

	private final String clusterId;

	private final int partitions;

	private final List<String> jvmOptions;

	/** A one-node Kafka that is its own controller quorum. */
	public KafkaBroker(Path workDir, int port, int controllerPort, int partitions) {
		this(workDir, port, controllerPort, partitions, List.of());
	}

	/**
	 * A one-node Kafka that is its own controller quorum, its JVM given these options too
	 * ({@link JvmOptions#QUICK_START}, say).
	 */
	public KafkaBroker(Path workDir, int port, int controllerPort, int partitions, List<String> jvmOptions) {
		this(workDir, new KafkaNode(1, port, controllerPort), List.of(new KafkaNode(1, port, controllerPort)),
				org.apache.kafka.common.Uuid.randomUuid().toString(), partitions, jvmOptions);
	}

	/**
	 * One node of a cluster: every node of it is given the same quorum and cluster id.
	 */
	KafkaBroker(Path workDir, KafkaNode node, List<KafkaNode> quorum, String clusterId, int partitions,
			List<String> jvmOptions) {
		super((quorum.size() == 1) ? "kafka" : "kafka-" + node.id(), workDir);
		this.node = node;
		this.quorum = List.copyOf(quorum);
		this.clusterId = clusterId;
		this.partitions = partitions;
		this.jvmOptions = List.copyOf(jvmOptions);
	}

	public int port() {
		return this.node.port();
	}

	public int nodeId() {
		return this.node.id();
	}

	public String bootstrapServers() {
		return this.node.address();
	}

	@Override
	protected void prepare() {
		Path properties = this.workDir.resolve("server.properties");
		try {
			Files.writeString(properties,
					serverProperties(this.workDir.resolve("data"), this.node, this.quorum, this.partitions));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		if (!Files.exists(this.workDir.resolve("data").resolve("meta.properties"))) {
			run(formatCommand(this.clusterId, properties), logFile());
		}
	}

	@Override
	protected List<String> command() {
		List<String> command = java("kafka.Kafka", this.workDir.resolve("server.properties").toString());
		command.addAll(1, this.jvmOptions);
		return command;
	}

	@Override
	protected void awaitReady() {
		// A node of a cluster also waits for the others to elect a controller.
		Duration timeout = Duration.ofSeconds((this.quorum.size() == 1) ? 60 : 120);
		awaitWhileRunning("kafka node " + this.node.id() + " on port " + this.node.port(), timeout,
				() -> answers(this.bootstrapServers()));
	}

	static boolean answers(String bootstrapServers) {
		if (!FreePorts.isOpen(Integer.parseInt(bootstrapServers.substring(bootstrapServers.lastIndexOf(':') + 1)))) {
			return false;
		}
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
				AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
				2000))) {
			return !admin.describeCluster().nodes().get(3, TimeUnit.SECONDS).isEmpty();
		}
		catch (Exception ex) {
			return false;
		}
	}

	/**
	 * The settings of a one-node Kafka that is its own controller, tuned for fast tests.
	 */
	public static String serverProperties(Path logDir, int port, int controllerPort, int partitions) {
		KafkaNode alone = new KafkaNode(1, port, controllerPort);
		return serverProperties(logDir, alone, List.of(alone), partitions);
	}

	/**
	 * The settings of one node of the given controller quorum, tuned for fast tests. With
	 * three nodes or more, internal topics and topics created without a replication
	 * factor get 3 replicas and {@code min.insync.replicas} 2; alone, 1 and 1.
	 */
	public static String serverProperties(Path logDir, KafkaNode node, List<KafkaNode> quorum, int partitions) {
		int replicas = Math.min(3, quorum.size());
		int minInsync = Math.max(1, replicas - 1);
		Properties p = new Properties();
		p.put("process.roles", "broker,controller");
		p.put("node.id", String.valueOf(node.id()));
		p.put("controller.quorum.voters", KafkaNode.voters(quorum));
		p.put("listeners", "PLAINTEXT://127.0.0.1:" + node.port() + ",CONTROLLER://127.0.0.1:" + node.controllerPort());
		p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + node.port());
		p.put("controller.listener.names", "CONTROLLER");
		p.put("inter.broker.listener.name", "PLAINTEXT");
		p.put("listener.security.protocol.map", "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT");
		p.put("log.dirs", logDir.toString());
		p.put("num.partitions", String.valueOf(partitions));
		// A cluster's topics are created by their owner (the relay) with the replication
		// it asks for; one created by a typo with broker defaults would hide that.
		p.put("auto.create.topics.enable", String.valueOf(quorum.size() == 1));
		p.put("default.replication.factor", String.valueOf(replicas));
		p.put("min.insync.replicas", String.valueOf(minInsync));
		p.put("offsets.topic.replication.factor", String.valueOf(replicas));
		p.put("offsets.topic.num.partitions", "3");
		p.put("transaction.state.log.replication.factor", String.valueOf(replicas));
		p.put("transaction.state.log.min.isr", String.valueOf(minInsync));
		p.put("share.coordinator.state.topic.replication.factor", String.valueOf(replicas));
		p.put("share.coordinator.state.topic.min.isr", String.valueOf(minInsync));
		// Kafka's default, stated: a leader is only ever elected from the in-sync
		// replicas, so no acknowledged record is given up for availability.
		p.put("unclean.leader.election.enable", "false");
		if (quorum.size() > 1) {
			// A killed node is fenced, and its partitions get new leaders, about 3 s
			// after its last heartbeat instead of Kafka's 9 s.
			p.put("broker.session.timeout.ms", "3000");
			p.put("broker.heartbeat.interval.ms", "500");
		}
		p.put("group.initial.rebalance.delay.ms", "0");
		p.put("message.max.bytes", "1048588");
		StringBuilder text = new StringBuilder();
		p.forEach((key, value) -> text.append(key).append('=').append(value).append('\n'));
		return text.toString();
	}

	/**
	 * Kafka's storage tool, formatting the data dir the properties name: a JVM that runs
	 * for a second or two, so with C1 alone ({@link JvmOptions#QUICK_START}), which
	 * spares it the CPU of compiling for a long run.
	 */
	private static List<String> formatCommand(String clusterId, Path properties) {
		List<String> command = java("kafka.tools.StorageTool", "format", "-t", clusterId, "-c", properties.toString(),
				"--ignore-formatted");
		command.addAll(1, JvmOptions.QUICK_START);
		return command;
	}

	static List<String> java(String mainClass, String... args) {
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		List<String> command = new java.util.ArrayList<>(List.of(java, "-Xms256m", "-Xmx512m", "-XX:+UseSerialGC",
				"-Dlog4j2.level=WARN", "-cp", classpath(), mainClass));
		command.addAll(List.of(args));
		return command;
	}

	/**
	 * The broker's jars, the client and logging jars beside them, and infra's own
	 * classes.
	 */
	static String classpath() {
		Path libs = locateKafkaLibs();
		return String.join(File.pathSeparator, libs.resolve("*").toString(),
				libs.resolveSibling("lib").resolve("*").toString(), ownLocation().toString());
	}

	private static Path ownLocation() {
		try {
			return Path.of(KafkaBroker.class.getProtectionDomain().getCodeSource().getLocation().toURI());
		}
		catch (URISyntaxException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Beside infra's own jar when built in the reactor, else under {@code kindling.root}.
	 */
	static Path locateKafkaLibs() {
		Path beside = ownLocation().resolveSibling("kafka-libs");
		if (Files.isDirectory(beside)) {
			return beside;
		}
		String root = System.getProperty("kindling.root", System.getenv().getOrDefault("KINDLING_ROOT", "."));
		Path fromRoot = Path.of(root, "infra", "target", "kafka-libs");
		if (Files.isDirectory(fromRoot)) {
			return fromRoot;
		}
		throw new IllegalStateException(
				"Kafka's jars are not at " + fromRoot + "; build the infra module first (mvn -pl infra package)");
	}

	/**
	 * Runs one node in the foreground for {@code ./kindling up}:
	 * {@code --port --controller-port --dir [--partitions]}; as one node of a cluster,
	 * also {@code --node-id --voters=1@127.0.0.1:9093,2@127.0.0.1:9095,3@127.0.0.1:9097
	 * --cluster-id} (the same voters and cluster id on every node).
	 */
	public static void main(String[] args) throws Exception {
		Map<String, String> options = new java.util.HashMap<>();
		for (String arg : args) {
			int eq = arg.indexOf('=');
			if (!arg.startsWith("--") || eq < 0) {
				System.err.println("usage: KafkaBroker --port=9092 --controller-port=9093 --dir=.kindling/kafka"
						+ " [--partitions=12] [--node-id=1 --voters=1@127.0.0.1:9093,... --cluster-id=<id>]");
				System.exit(2);
			}
			options.put(arg.substring(2, eq), arg.substring(eq + 1));
		}
		Path dir = Path.of(options.getOrDefault("dir", ".kindling/kafka")).toAbsolutePath();
		int port = Integer.parseInt(options.getOrDefault("port", "9092"));
		int controllerPort = Integer.parseInt(options.getOrDefault("controller-port", "9093"));
		int partitions = Integer.parseInt(options.getOrDefault("partitions", "12"));
		KafkaNode node = new KafkaNode(Integer.parseInt(options.getOrDefault("node-id", "1")), port, controllerPort);
		List<KafkaNode> quorum = options.containsKey("voters") ? KafkaNode.parseVoters(options.get("voters"))
				: List.of(node);
		if (quorum.stream().noneMatch((voter) -> voter.voter().equals(node.voter()))) {
			throw new IllegalArgumentException(node.voter() + " is not among the voters " + KafkaNode.voters(quorum));
		}
		String clusterId = options.get("cluster-id");
		if (clusterId == null && quorum.size() > 1) {
			throw new IllegalArgumentException("every node of a cluster needs the same --cluster-id");
		}
		Files.createDirectories(dir);
		Path properties = dir.resolve("server.properties");
		Files.writeString(properties, serverProperties(dir.resolve("data"), node, quorum, partitions));
		if (!Files.exists(dir.resolve("data").resolve("meta.properties"))) {
			System.out.println("formatting Kafka storage in " + dir.resolve("data"));
			formatStorage(formatCommand(
					(clusterId != null) ? clusterId : org.apache.kafka.common.Uuid.randomUuid().toString(), properties),
					dir.resolve("format.log"));
		}
		kafka.Kafka.main(new String[] { properties.toString() });
	}

	private static void formatStorage(List<String> command, Path log) throws IOException, InterruptedException {
		Process process = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
			.start();
		if (process.waitFor() != 0) {
			throw new IllegalStateException("formatting Kafka storage failed; see " + log);
		}
	}

}
