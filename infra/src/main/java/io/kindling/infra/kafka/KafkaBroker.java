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
import io.kindling.infra.servers.ServerProcess;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * A one-node KRaft Kafka broker in its own JVM, run from the {@code kafka_2.13} jars that
 * the infra build copies to {@code infra/target/kafka-libs}. Storage is formatted once
 * per dir.
 */
public final class KafkaBroker extends ServerProcess {

	private final int port;

	private final int controllerPort;

	private final int partitions;

	public KafkaBroker(Path workDir, int port, int controllerPort, int partitions) {
		super("kafka", workDir);
		this.port = port;
		this.controllerPort = controllerPort;
		this.partitions = partitions;
	}

	public int port() {
		return this.port;
	}

	public String bootstrapServers() {
		return "127.0.0.1:" + this.port;
	}

	@Override
	protected void prepare() {
		Path properties = this.workDir.resolve("server.properties");
		try {
			Files.writeString(properties,
					serverProperties(this.workDir.resolve("data"), this.port, this.controllerPort, this.partitions));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		if (!Files.exists(this.workDir.resolve("data").resolve("meta.properties"))) {
			run(java("kafka.tools.StorageTool", "format", "-t", org.apache.kafka.common.Uuid.randomUuid().toString(),
					"-c", properties.toString(), "--ignore-formatted"), logFile());
		}
	}

	@Override
	protected List<String> command() {
		return java("kafka.Kafka", this.workDir.resolve("server.properties").toString());
	}

	@Override
	protected void awaitReady() {
		FreePorts.await("kafka on port " + this.port, Duration.ofSeconds(60), () -> answers(this.bootstrapServers()));
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
	 * The broker's settings: one node that is its own controller, tuned for fast tests.
	 */
	public static String serverProperties(Path logDir, int port, int controllerPort, int partitions) {
		Properties p = new Properties();
		p.put("process.roles", "broker,controller");
		p.put("node.id", "1");
		p.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
		p.put("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
		p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
		p.put("controller.listener.names", "CONTROLLER");
		p.put("inter.broker.listener.name", "PLAINTEXT");
		p.put("listener.security.protocol.map", "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT");
		p.put("log.dirs", logDir.toString());
		p.put("num.partitions", String.valueOf(partitions));
		p.put("auto.create.topics.enable", "true");
		p.put("offsets.topic.replication.factor", "1");
		p.put("offsets.topic.num.partitions", "3");
		p.put("transaction.state.log.replication.factor", "1");
		p.put("transaction.state.log.min.isr", "1");
		p.put("share.coordinator.state.topic.replication.factor", "1");
		p.put("share.coordinator.state.topic.min.isr", "1");
		p.put("group.initial.rebalance.delay.ms", "0");
		p.put("message.max.bytes", "1048588");
		StringBuilder text = new StringBuilder();
		p.forEach((key, value) -> text.append(key).append('=').append(value).append('\n'));
		return text.toString();
	}

	private static List<String> java(String mainClass, String... args) {
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
	 * Runs a broker in the foreground for {@code ./kindling up}:
	 * {@code --port --controller-port --dir}.
	 */
	public static void main(String[] args) throws Exception {
		Map<String, String> options = new java.util.HashMap<>();
		for (String arg : args) {
			int eq = arg.indexOf('=');
			if (!arg.startsWith("--") || eq < 0) {
				System.err.println("usage: KafkaBroker --port=9092 --controller-port=9093 --dir=.kindling/kafka");
				System.exit(2);
			}
			options.put(arg.substring(2, eq), arg.substring(eq + 1));
		}
		Path dir = Path.of(options.getOrDefault("dir", ".kindling/kafka")).toAbsolutePath();
		int port = Integer.parseInt(options.getOrDefault("port", "9092"));
		int controllerPort = Integer.parseInt(options.getOrDefault("controller-port", "9093"));
		int partitions = Integer.parseInt(options.getOrDefault("partitions", "12"));
		Files.createDirectories(dir);
		Path properties = dir.resolve("server.properties");
		Files.writeString(properties, serverProperties(dir.resolve("data"), port, controllerPort, partitions));
		if (!Files.exists(dir.resolve("data").resolve("meta.properties"))) {
			System.out.println("formatting Kafka storage in " + dir.resolve("data"));
			formatStorage(java("kafka.tools.StorageTool", "format", "-t",
					org.apache.kafka.common.Uuid.randomUuid().toString(), "-c", properties.toString(),
					"--ignore-formatted"), dir.resolve("format.log"));
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
