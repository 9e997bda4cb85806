package io.kindling.infra.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * HAProxy in front of a {@link GaleraCluster}, from {@code config/haproxy-database.cfg}
 * as {@code ./kindling up --cluster} writes it: one port, one writer at a time, the first
 * node active and the others its backups.
 */
public final class DatabaseBalancer extends ServerProcess {

	private final int port;

	private final List<GaleraNode> nodes;

	DatabaseBalancer(Path workDir, int port, List<GaleraNode> nodes) {
		super("haproxy", workDir);
		this.port = port;
		this.nodes = List.copyOf(nodes);
	}

	public int port() {
		return this.port;
	}

	/** The server lines: the first node active, the others backups. */
	static String servers(List<String> names, List<Integer> ports) {
		StringBuilder servers = new StringBuilder();
		for (int i = 0; i < names.size(); i++) {
			servers.append("\tserver ").append(names.get(i)).append(" 127.0.0.1:").append(ports.get(i));
			servers.append((i == 0) ? "\n" : " backup\n");
		}
		return servers.toString();
	}

	@Override
	protected void prepare() {
		String servers = servers(this.nodes.stream().map(GaleraNode::nodeName).toList(),
				this.nodes.stream().map(GaleraNode::port).toList());
		String config = """
				# the tests' database balancer: config/haproxy-database.cfg alone
				global
					log stdout format raw local0 info
				defaults
					log global
				""" + ConfigTemplate.render("haproxy-database.cfg",
				Map.of("port", String.valueOf(this.port), "servers", servers.stripTrailing()));
		try {
			Files.createDirectories(this.workDir);
			Files.writeString(this.workDir.resolve("haproxy.cfg"), config);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Override
	protected List<String> command() {
		String haproxy = Files.isExecutable(Path.of("/usr/sbin/haproxy")) ? "/usr/sbin/haproxy" : "haproxy";
		return List.of(haproxy, "-db", "-f", this.workDir.resolve("haproxy.cfg").toString());
	}

	@Override
	protected void awaitReady() {
		awaitWhileRunning("the database balancer on port " + this.port, Duration.ofSeconds(20),
				() -> FreePorts.isOpen(this.port));
	}

}
