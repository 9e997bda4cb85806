package io.kindling.infra.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.kindling.infra.servers.FreePorts;
import org.jspecify.annotations.Nullable;

/**
 * {@code ./kindling up --cluster} as a user runs it, on ports and in a state directory of
 * its own, for the drills that start, kill and stop the cluster stack's processes
 * ({@code bench stack}, {@code bench chaos}): the script's commands, and what it leaves
 * on the machine: its secrets, pid files and logs, and the processes that name its state
 * directory.
 */
public final class ClusterStack {

	private final Path root;

	private final Path state;

	private final Ports ports;

	private volatile @Nullable String jwtSecret;

	/**
	 * A new state directory under {@code parent} (under /var/tmp: MariaDB, run as the
	 * mysql user when we are root, must reach its data dir) and a free block of ports.
	 */
	public ClusterStack(Path root, Path parent, String name) throws IOException {
		this.root = root;
		this.state = Files.createTempDirectory(parent, "kindling-" + name + "-");
		this.ports = Ports.free();
	}

	public Path state() {
		return this.state;
	}

	public Ports ports() {
		return this.ports;
	}

	/**
	 * The JWT secret the stack's services check tokens with: the one
	 * {@code ./kindling up} made in the state directory, as for a user's stack.
	 */
	public String jwtSecret() {
		String secret = this.jwtSecret;
		if (secret == null) {
			try {
				secret = Files.readString(this.state.resolve("jwt-secret")).strip();
			}
			catch (IOException ex) {
				throw new UncheckedIOException("no JWT secret yet: ./kindling up makes it", ex);
			}
			this.jwtSecret = secret;
		}
		return secret;
	}

	/**
	 * Runs {@code ./kindling <args>} with the stack's environment, its output appended to
	 * {@code drill-<command>.log} in the state directory (the last 20 lines printed when
	 * it fails); its exit code, or -1 when it did not end in time.
	 */
	public int kindling(Duration timeout, String... args) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>(List.of(this.root.resolve("kindling").toString()));
		command.addAll(List.of(args));
		Path log = this.state.resolve("drill-" + args[0] + ".log");
		ProcessBuilder builder = new ProcessBuilder(command).directory(this.root.toFile())
			.redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
		builder.environment().keySet().removeIf((name) -> name.startsWith("KINDLING_"));
		builder.environment().putAll(this.ports.environment(this.state));
		Process process = builder.start();
		if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
			process.destroyForcibly();
			System.out.printf("./kindling %s did not end within %s; see %s%n", String.join(" ", args), timeout, log);
			return -1;
		}
		if (process.exitValue() != 0) {
			List<String> lines = Files.readAllLines(log);
			lines.subList(Math.max(0, lines.size() - 20), lines.size())
				.forEach((line) -> System.out.println("  | " + line));
		}
		return process.exitValue();
	}

	/** Every pid file the script keeps, by name. */
	public Map<String, Long> pids() throws IOException {
		Map<String, Long> pids = new TreeMap<>();
		try (Stream<Path> files = Files.list(this.state.resolve("run"))) {
			for (Path file : files.filter((path) -> path.toString().endsWith(".pid")).toList()) {
				String name = file.getFileName().toString().replaceFirst("\\.pid$", "");
				pids.put(name, Long.parseLong(Files.readString(file).strip()));
			}
		}
		return pids;
	}

	/** The pid in a process's pid file (the process may have ended since). */
	public long pidOf(String name) throws IOException {
		return Long.parseLong(Files.readString(this.state.resolve("run/" + name + ".pid")).strip());
	}

	/** A process's log, as the script keeps it. */
	public String log(String name) throws IOException {
		return Files.readString(this.state.resolve("logs/" + name + ".log"));
	}

	/** The processes, but this one, whose command line names the state dir. */
	public List<String> processesNamingTheState() throws IOException {
		List<String> naming = new ArrayList<>();
		long self = ProcessHandle.current().pid();
		try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
			for (Path dir : processes.filter((path) -> path.getFileName().toString().matches("\\d+")).toList()) {
				String commandLine = commandLine(dir);
				if (commandLine.contains(this.state.toString()) && !dir.getFileName().toString().equals("" + self)) {
					naming.add(dir.getFileName() + " " + commandLine.substring(0, Math.min(120, commandLine.length())));
				}
			}
		}
		return naming;
	}

	private static String commandLine(Path dir) {
		try {
			return new String(Files.readAllBytes(dir.resolve("cmdline")), StandardCharsets.UTF_8).replace('\0', ' ');
		}
		catch (IOException ex) {
			return "";
		}
	}

	/**
	 * The stack's ports, all from one base: six Redis nodes (and their buses at +10000),
	 * the database's balancer port (its three Galera nodes at +100, +200 and +300, each
	 * with three ports above it), three Kafka nodes with their controllers, the three
	 * services' balancer ports (their instances at +100 and +200), the web client's and
	 * Prometheus's.
	 */
	public record Ports(int base) {

		public static Ports free() {
			SplittableRandom random = new SplittableRandom();
			for (int attempt = 0; attempt < 50; attempt++) {
				// below Linux's ephemeral range (32768 up), where an outgoing connection
				// can take a port between the check and the bind
				Ports ports = new Ports(20_000 + 10 * random.nextInt(270));
				if (ports.all().stream().noneMatch(FreePorts::isOpen)) {
					return ports;
				}
			}
			throw new IllegalStateException("no free block of ports for the cluster stack");
		}

		public int redis() {
			return this.base;
		}

		public int db() {
			return this.base + 6;
		}

		public int kafka() {
			return this.base + 10;
		}

		public int matching() {
			return this.base + 20;
		}

		public int swipe() {
			return this.base + 21;
		}

		public int relay() {
			return this.base + 22;
		}

		/** The web client's: left at its default, it met whatever else ran on 8080. */
		public int web() {
			return this.base + 23;
		}

		/** Prometheus's, for the same reason (its default is 9090). */
		public int prometheus() {
			return this.base + 24;
		}

		/** Every port the stack listens on. */
		public List<Integer> all() {
			List<Integer> ports = new ArrayList<>();
			for (int i = 0; i < 6; i++) {
				ports.add(redis() + i);
				ports.add(redis() + i + 10_000);
			}
			ports.add(db());
			// the three Galera nodes behind the database's balancer port, each with its
			// group communication, IST and SST ports above it
			for (int node = 1; node <= 3; node++) {
				for (int i = 0; i < 4; i++) {
					ports.add(db() + 100 * node + i);
				}
			}
			for (int i = 0; i < 6; i++) {
				ports.add(kafka() + i);
			}
			for (int service : List.of(matching(), swipe(), relay())) {
				ports.addAll(List.of(service, service + 100, service + 200));
			}
			ports.add(web());
			ports.add(prometheus());
			return ports;
		}

		public Map<String, String> environment(Path state) {
			Map<String, String> environment = new HashMap<>();
			environment.put("KINDLING_STATE_DIR", state.toString());
			environment.put("KINDLING_REDIS_PORT", String.valueOf(redis()));
			environment.put("KINDLING_DB_PORT", String.valueOf(db()));
			environment.put("KINDLING_KAFKA_PORT", String.valueOf(kafka()));
			environment.put("KINDLING_KAFKA_CONTROLLER_PORT", String.valueOf(kafka() + 1));
			environment.put("KINDLING_MATCHING_PORT", String.valueOf(matching()));
			environment.put("KINDLING_SWIPE_PORT", String.valueOf(swipe()));
			environment.put("KINDLING_RELAY_PORT", String.valueOf(relay()));
			environment.put("KINDLING_WEB_PORT", String.valueOf(web()));
			environment.put("KINDLING_PROMETHEUS_PORT", String.valueOf(prometheus()));
			return environment;
		}

	}

}
