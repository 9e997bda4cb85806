package io.kindling.infra.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A real Redis Sentinel ({@code redis-server <conf> --sentinel}) watching one primary. It
 * rewrites its own configuration file as it learns, so the file lives in its work
 * directory.
 */
public final class SentinelServer extends ServerProcess {

	private final int port;

	private final String masterName;

	private final int primaryPort;

	private final Duration downAfter;

	public SentinelServer(Path workDir, int port, String masterName, int primaryPort, Duration downAfter) {
		super("sentinel", workDir);
		this.port = port;
		this.masterName = masterName;
		this.primaryPort = primaryPort;
		this.downAfter = downAfter;
	}

	public int port() {
		return this.port;
	}

	@Override
	protected void prepare() {
		Path config = config();
		if (Files.exists(config)) {
			return;
		}
		String name = this.masterName;
		try {
			Files.writeString(config, String.join("\n", "port " + this.port, "bind 127.0.0.1", "protected-mode no",
					"dir " + this.workDir, "sentinel monitor " + name + " 127.0.0.1 " + this.primaryPort + " 2",
					"sentinel down-after-milliseconds " + name + " " + this.downAfter.toMillis(),
					"sentinel failover-timeout " + name + " 10000", "sentinel parallel-syncs " + name + " 1", ""));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Override
	protected List<String> command() {
		return List.of("redis-server", config().toString(), "--sentinel");
	}

	@Override
	protected void awaitReady() {
		awaitWhileRunning("sentinel on port " + this.port, Duration.ofSeconds(20), () -> FreePorts.isOpen(this.port));
	}

	private Path config() {
		return this.workDir.resolve("sentinel.conf");
	}

}
