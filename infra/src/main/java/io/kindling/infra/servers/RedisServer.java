package io.kindling.infra.servers;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A real {@code redis-server} on a loopback port, with no persistence. Set
 * {@code KINDLING_REDIS_SERVER} to use another binary (for example Redis 8, which has the
 * Bloom commands built in) and {@code KINDLING_REDIS_MODULE} to load a module such as
 * RedisBloom.
 */
public final class RedisServer extends ServerProcess {

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
		FreePorts.await("redis on port " + this.port, Duration.ofSeconds(20), () -> FreePorts.isOpen(this.port));
	}

}
