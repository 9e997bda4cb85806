package io.kindling.relay;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kindling.infra.http.ServiceClient;
import io.kindling.infra.servers.FreePorts;

/**
 * A relay in its own JVM, run from this module's classes and runtime classpath, so a test
 * can {@code kill -9} it as a crash would.
 */
final class RelayProcess implements AutoCloseable {

	final String name;

	final int port;

	private final Process process;

	/** What this relay's {@code /actuator/prometheus} takes. */
	private final String metricsToken = UUID.randomUUID().toString();

	RelayProcess(String name, Map<String, String> settings) {
		this.name = name;
		this.port = FreePorts.pick();
		List<String> command = new ArrayList<>(List.of(
				Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx384m", "-XX:+UseSerialGC",
				"-XX:TieredStopAtLevel=1", "-cp", classpath(), "io.kindling.relay.RelayApplication",
				"--server.port=" + this.port, "--kindling.web.metrics-token=" + this.metricsToken));
		settings.forEach((key, value) -> command.add("--" + key + "=" + value));
		if (!settings.containsKey("kindling.relay.wake-up-port")) {
			// two relays on one machine must not both bind the default UDP 8083
			command.add("--kindling.relay.wake-up-port=0");
		}
		try {
			this.process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(Path.of("target", "relay-" + name + ".log").toFile())
				.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static String classpath() {
		try {
			String dependencies = Files.readString(Path.of("target", "relay-classpath.txt")).strip();
			return Path.of("target", "classes").toAbsolutePath() + File.pathSeparator + dependencies;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("target/relay-classpath.txt is written by the build (mvn verify)", ex);
		}
	}

	void awaitHealthy() {
		FreePorts.await("relay " + this.name + " on port " + this.port, Duration.ofSeconds(90),
				() -> get("/actuator/health").contains("\"status\":\"UP\""));
	}

	/** SIGKILL: no shutdown hook, no graceful stop, as in a crash. */
	void kill() throws InterruptedException {
		this.process.destroyForcibly();
		this.process.waitFor(10, TimeUnit.SECONDS);
	}

	double published(String source) {
		Matcher matcher = Pattern
			.compile("kindling_relay_published_total\\{[^}]*source=\"" + source + "\"[^}]*\\} ([0-9.eE+]+)")
			.matcher(get("/actuator/prometheus"));
		return matcher.find() ? Double.parseDouble(matcher.group(1)) : 0;
	}

	/**
	 * A meter's value from the Prometheus page: the first series of that name with every
	 * one of the given tags ({@code kind="unavailable"}); 0 when there is none yet.
	 */
	double metric(String name, String... tags) {
		for (String line : get("/actuator/prometheus").split("\n")) {
			if (line.startsWith(name + "{") && java.util.Arrays.stream(tags).allMatch(line::contains)) {
				return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
			}
		}
		return 0;
	}

	String get(String path) {
		if (!this.process.isAlive()) {
			throw new IllegalStateException("relay " + this.name + " ended; see target/relay-" + this.name + ".log");
		}
		try {
			return new ServiceClient(this.port, Duration.ofSeconds(5)).get(path, this.metricsToken).body();
		}
		catch (UncheckedIOException ex) {
			// not answering yet
			return "";
		}
	}

	@Override
	public void close() throws InterruptedException {
		this.process.destroy();
		if (!this.process.waitFor(20, TimeUnit.SECONDS)) {
			kill();
		}
	}

}
