package io.kindling.infra.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.kindling.infra.http.ServiceClient;
import org.jspecify.annotations.Nullable;

/**
 * A service's jar running as a process on a port its caller (a bench, a test) picked, its
 * output in a log file.
 */
public final class ServiceJar {

	private final String name;

	private final int port;

	private final Path log;

	private final Process process;

	private ServiceJar(String name, int port, Path log, Process process) {
		this.name = name;
		this.port = port;
		this.log = log;
		this.process = process;
	}

	/**
	 * {@code <root>/<module>/target/<module>.jar}; fails with how to build it when it is
	 * missing.
	 */
	public static Path locate(Path root, String module) {
		Path jar = root.resolve(module + "/target/" + module + ".jar");
		if (!Files.exists(jar)) {
			throw new IllegalStateException("no " + jar + ": build it first (mvn -pl " + module + " -am package)");
		}
		return jar;
	}

	/**
	 * Starts
	 * {@code java -Xms<heap> -Xmx<heap> -XX:MaxGCPauseMillis=20 -jar <jar> --server.port=<port> <settings>},
	 * output to {@code log}; it is not yet healthy. JVM options in the environment
	 * variable {@code KINDLING_BENCH_JVM_OPTS} (e.g. a JFR recording) go before
	 * {@code -jar}.
	 */
	public static ServiceJar start(Path jar, String heap, int port, List<String> settings, Path log)
			throws IOException {
		return start(jar, null, List.of(), heap, port, settings, log);
	}

	/**
	 * As {@link #start(Path, String, int, List, Path)}, with the classes under
	 * {@code extraClasses} on the service's class path beside its own (Spring Boot's
	 * {@code PropertiesLauncher} and its {@code loader.path}) and {@code jvmOptions}
	 * ({@code -Dname=value}) before the launcher: for a bench that adds a bean of its own
	 * to a service ({@code --spring.main.sources=<class>}).
	 */
	public static ServiceJar start(Path jar, @Nullable Path extraClasses, List<String> jvmOptions, String heap,
			int port, List<String> settings, Path log) throws IOException {
		// as ./kindling up runs them: a fixed heap (G1 keeps a heap that starts small
		// at that size and collects it every few seconds) and a 20 ms pause goal
		List<String> command = new ArrayList<>(
				List.of(javaBinary(), "-Xms" + heap, "-Xmx" + heap, "-XX:MaxGCPauseMillis=20"));
		String environmentOptions = System.getenv().getOrDefault("KINDLING_BENCH_JVM_OPTS", "").strip();
		if (!environmentOptions.isEmpty()) {
			command.addAll(List.of(environmentOptions.split("\\s+")));
		}
		command.addAll(jvmOptions);
		if (extraClasses == null) {
			command.addAll(List.of("-jar", jar.toString()));
		}
		else {
			command.addAll(List.of("-cp", jar.toString(), "-Dloader.path=" + extraClasses,
					"org.springframework.boot.loader.launch.PropertiesLauncher"));
		}
		command.add("--server.port=" + port);
		command.addAll(settings);
		Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		String name = jar.getFileName().toString().replaceFirst("\\.jar$", "");
		return new ServiceJar(name, port, log, process);
	}

	/** The java that runs this bench, so the services run on the same JDK. */
	public static String javaBinary() {
		return Path.of(System.getProperty("java.home"), "bin", "java").toString();
	}

	public int port() {
		return this.port;
	}

	public long pid() {
		return this.process.pid();
	}

	public Path log() {
		return this.log;
	}

	/** Waits for {@code /actuator/health} to answer 200; fails if the process exits. */
	public void awaitHealthy(Duration timeout) throws InterruptedException {
		ServiceClient http = new ServiceClient(this.port, Duration.ofSeconds(10));
		long deadline = System.nanoTime() + timeout.toNanos();
		while (System.nanoTime() < deadline) {
			if (!this.process.isAlive()) {
				throw new IllegalStateException(
						this.name + " did not become healthy: " + LogTail.describe(this.process, this.log));
			}
			try {
				if (http.get("/actuator/health", null).status() == 200) {
					return;
				}
			}
			catch (UncheckedIOException ex) {
				// not listening yet
			}
			Thread.sleep(250);
		}
		throw new IllegalStateException(this.name + " on port " + this.port + " did not become healthy within "
				+ timeout.toSeconds() + " s: " + LogTail.describe(this.process, this.log));
	}

	/** Asks it to stop, and kills it if it has not within 20 s. */
	public void stop() {
		stopAll(List.of(this));
	}

	/** Asks all to stop at once, then kills any that has not within 20 s. */
	public static void stopAll(List<ServiceJar> services) {
		for (ServiceJar service : services) {
			service.process.destroy();
		}
		for (ServiceJar service : services) {
			try {
				if (!service.process.waitFor(20, TimeUnit.SECONDS)) {
					service.process.destroyForcibly();
				}
			}
			catch (InterruptedException ex) {
				service.process.destroyForcibly();
				Thread.currentThread().interrupt();
			}
		}
	}

}
