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

	public RedisServer(Path workDir, int port) {
		super("redis", workDir);
		this.port = port;
	}

	public int port() {
		return this.port;
	}

	@Override
	protected List<String> command() {
		List<String> command = new ArrayList<>(List.of(binary(), "--port", String.valueOf(this.port), "--bind",
				"127.0.0.1", "--dir", this.workDir.toString(), "--save", "", "--appendonly", "no", "--daemonize", "no",
				"--protected-mode", "no"));
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
