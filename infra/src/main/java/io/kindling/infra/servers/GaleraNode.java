package io.kindling.infra.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * One node of a {@link GaleraCluster}: {@code mariadbd} with the Galera provider, reading
 * {@code config/galera.cnf} as {@code ./kindling up --cluster} writes it. A node started
 * after a crash first recovers the last position its own InnoDB committed
 * ({@code --wsrep-recover}), so that it rejoins with the write sets it missed (IST)
 * instead of a copy of the whole data dir (SST).
 */
public final class GaleraNode extends ServerProcess {

	private static final Pattern RECOVERED = Pattern.compile("Recovered position: ([0-9a-f-]{36}:-?\\d+)");

	private static final Pattern CRASHED = Pattern.compile("(?m)^seqno:\\s+-1\\s*$");

	private final String nodeName;

	private final Ports ports;

	private final String members;

	private final Path dataDir;

	private final Path socket;

	private final Path config;

	private boolean bootstrap;

	private @Nullable String startPosition;

	/**
	 * A node's four ports on loopback.
	 *
	 * @param port MySQL clients
	 * @param galeraPort the cluster's group communication
	 * @param istPort incremental state transfer: the write sets a rejoining node missed
	 * @param sstPort state snapshot transfer: a whole data dir (rsync)
	 */
	public record Ports(int port, int galeraPort, int istPort, int sstPort) {

		static Ports free() {
			return new Ports(FreePorts.pick(), FreePorts.pick(), FreePorts.pick(), FreePorts.pick());
		}

	}

	/**
	 * @param members every node's {@code host:galeraPort}, for
	 * {@code wsrep-cluster-address}
	 */
	GaleraNode(Path workDir, String nodeName, Ports ports, String members) {
		super(nodeName, workDir);
		this.nodeName = nodeName;
		this.ports = ports;
		this.members = members;
		this.dataDir = workDir.resolve("data");
		this.socket = workDir.resolve("mariadb.sock");
		this.config = workDir.resolve("galera.cnf");
	}

	/** {@code mariadb-1}, ...: its {@code wsrep_node_name}. */
	public String nodeName() {
		return this.nodeName;
	}

	public int port() {
		return this.ports.port();
	}

	Ports ports() {
		return this.ports;
	}

	/**
	 * Starts this node as a new cluster of one ({@code --wsrep-new-cluster}), for the
	 * others to join: only when no node of the cluster runs.
	 */
	synchronized void bootstrap() {
		this.bootstrap = true;
		try {
			start();
		}
		finally {
			this.bootstrap = false;
		}
	}

	/**
	 * The position (cluster id and sequence number) this node's last start recovered
	 * after a crash; null when it was stopped cleanly or is new.
	 */
	public synchronized @Nullable String startPosition() {
		return this.startPosition;
	}

	@Override
	protected void prepare() {
		try {
			Files.createDirectories(this.workDir);
			Files.writeString(this.config,
					ConfigTemplate.render("galera.cnf", Map.of("dir", this.workDir.toString(), "port",
							String.valueOf(this.ports.port()), "name", this.nodeName, "members", this.members,
							"galera_port", String.valueOf(this.ports.galeraPort()), "ist_port",
							String.valueOf(this.ports.istPort()), "sst_port", String.valueOf(this.ports.sstPort()))));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		MariaDbServer.initialise(this.workDir, this.dataDir, logFile());
		this.startPosition = crashed() ? recoverPosition() : null;
	}

	/** After a kill its state file says "position unknown" (seqno -1). */
	private boolean crashed() {
		Path state = this.dataDir.resolve("grastate.dat");
		try {
			return Files.exists(state) && CRASHED.matcher(Files.readString(state)).find();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * {@code mariadbd --wsrep-recover}: reads the last committed position from InnoDB.
	 */
	private String recoverPosition() {
		List<String> command = new ArrayList<>(
				List.of(MariaDbServer.binary("mariadbd"), "--defaults-file=" + this.config, "--wsrep-recover",
						"--log-error=" + this.workDir.resolve("recover.log")));
		if (MariaDbServer.isRoot()) {
			command.add("--user=mysql");
		}
		String printed = output(command, Duration.ofSeconds(120));
		try {
			printed += Files.exists(this.workDir.resolve("recover.log"))
					? Files.readString(this.workDir.resolve("recover.log")) : "";
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		Matcher recovered = RECOVERED.matcher(printed);
		String position = null;
		while (recovered.find()) {
			position = recovered.group(1);
		}
		if (position == null) {
			throw new IllegalStateException(this.nodeName + ": --wsrep-recover found no position:\n" + printed);
		}
		return position;
	}

	@Override
	protected List<String> command() {
		List<String> command = new ArrayList<>(
				List.of(MariaDbServer.binary("mariadbd"), "--defaults-file=" + this.config));
		if (MariaDbServer.isRoot()) {
			command.add("--user=mysql");
		}
		if (this.bootstrap) {
			command.add("--wsrep-new-cluster");
		}
		if (this.startPosition != null) {
			command.add("--wsrep-start-position=" + this.startPosition);
		}
		return command;
	}

	/**
	 * Until it is Synced with the cluster: a joiner first receives its state (IST or
	 * SST).
	 */
	@Override
	protected void awaitReady() {
		awaitWhileRunning(this.nodeName + " synced with the cluster", Duration.ofSeconds(180), this::synced);
	}

	/** Whether it answers and is Synced (wsrep_local_state 4). */
	public boolean synced() {
		return "4".equals(status("wsrep_local_state"));
	}

	/**
	 * A status variable, as {@code SHOW GLOBAL STATUS} (which never waits for the
	 * cluster) has it; empty when the node does not answer.
	 */
	public String status(String variable) {
		if (!Files.exists(this.socket) || !FreePorts.isOpen(this.ports.port())) {
			return "";
		}
		try {
			String row = MariaDbServer.query(this.socket, "SHOW GLOBAL STATUS LIKE '" + variable + "'").strip();
			int tab = row.indexOf('\t');
			return (tab < 0) ? "" : row.substring(tab + 1);
		}
		catch (RuntimeException ex) {
			return "";
		}
	}

	/** Runs statements as root over this node's socket. */
	public void sql(String statements) {
		MariaDbServer.sql(this.socket, statements, logFile());
	}

	/** The tab-separated output of statements run as root over this node's socket. */
	public String query(String statements) {
		return MariaDbServer.query(this.socket, statements);
	}

	/** The log says how it last joined: IST (write sets) or SST (a whole data dir). */
	public String log() {
		try {
			return Files.exists(logFile()) ? Files.readString(logFile()) : "";
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
