package io.kindling.infra.servers;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A real three-node MariaDB Galera cluster on loopback behind a {@link DatabaseBalancer},
 * as {@code ./kindling up --cluster} runs it: clients use the balancer's port, which
 * sends every connection to one node, the writer. The first node starts a new cluster,
 * the others join it; any node can be killed ({@code kill -9}) and restarted, and rejoins
 * with what it missed.
 */
public final class GaleraCluster implements AutoCloseable {

	/** The balancer's health check logs in as this user: no password, no grants. */
	public static final String CHECK_USER = "haproxy_check";

	private static final int NODES = 3;

	private final Path workDir;

	private final List<GaleraNode> nodes;

	private final DatabaseBalancer balancer;

	private GaleraCluster(Path workDir, List<GaleraNode> nodes, int balancerPort) {
		this.workDir = workDir;
		this.nodes = List.copyOf(nodes);
		this.balancer = new DatabaseBalancer(workDir.resolve("balancer"), balancerPort, nodes);
	}

	/** Three nodes and their balancer on free loopback ports. */
	public static GaleraCluster onFreePorts(Path workDir) {
		List<GaleraNode.Ports> ports = new ArrayList<>();
		for (int i = 0; i < NODES; i++) {
			ports.add(GaleraNode.Ports.free());
		}
		String members = ports.stream()
			.map((node) -> "127.0.0.1:" + node.galeraPort())
			.collect(Collectors.joining(","));
		List<GaleraNode> nodes = new ArrayList<>();
		for (int i = 0; i < NODES; i++) {
			String name = "mariadb-" + (i + 1);
			nodes.add(new GaleraNode(workDir.resolve(name), name, ports.get(i), members));
		}
		return new GaleraCluster(workDir, nodes, FreePorts.pick());
	}

	/**
	 * The first node starts the cluster, the others join it one at a time (each is sent a
	 * copy of the data), then the balancer starts.
	 */
	public synchronized void start() {
		if (this.nodes.stream().noneMatch(GaleraNode::isRunning)) {
			this.nodes.get(0).bootstrap();
			// replicated to every node that joins
			this.nodes.get(0)
				.sql("CREATE USER IF NOT EXISTS '" + CHECK_USER + "'@'127.0.0.1';" + MariaDbServer.createAppUser());
		}
		this.nodes.forEach(GaleraNode::start);
		this.balancer.start();
		FreePorts.await("a writer behind the balancer", Duration.ofSeconds(30), () -> currentWriter().isPresent());
	}

	/** The port clients use: the balancer's. */
	public int port() {
		return this.balancer.port();
	}

	public String jdbcUrl(String database) {
		return "jdbc:mysql://127.0.0.1:" + port() + "/" + database
				+ "?useSSL=false&allowPublicKeyRetrieval=true&rewriteBatchedStatements=true";
	}

	public List<GaleraNode> nodes() {
		return this.nodes;
	}

	public DatabaseBalancer balancer() {
		return this.balancer;
	}

	/** Creates the database (if missing) and grants the app user everything on it. */
	public void createDatabase(String database) {
		sql(MariaDbServer.createDatabaseSql(database));
	}

	/** Runs statements as root on a running node; the cluster replicates them. */
	public void sql(String statements) {
		this.nodes.stream()
			.filter(GaleraNode::synced)
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("no Galera node is synced"))
			.sql(statements);
	}

	/** The node the balancer sends connections to now. */
	public GaleraNode writer() {
		return currentWriter().orElseThrow(() -> new IllegalStateException("no node answers through the balancer"));
	}

	/** Asks through the balancer which node answers; empty while none does. */
	public Optional<GaleraNode> currentWriter() {
		try (Connection connection = DriverManager.getConnection(
				"jdbc:mysql://127.0.0.1:" + port()
						+ "/?useSSL=false&allowPublicKeyRetrieval=true&connectTimeout=2000&socketTimeout=5000",
				MariaDbServer.USER, MariaDbServer.PASSWORD);
				Statement statement = connection.createStatement();
				ResultSet name = statement.executeQuery("SELECT @@wsrep_node_name")) {
			name.next();
			String nodeName = name.getString(1);
			return this.nodes.stream().filter((node) -> node.nodeName().equals(nodeName)).findFirst();
		}
		catch (SQLException ex) {
			return Optional.empty();
		}
	}

	/** Waits until the balancer sends connections to another node than this one. */
	public GaleraNode awaitWriterOtherThan(GaleraNode old, Duration timeout) {
		FreePorts.await("a writer other than " + old.nodeName(), timeout,
				() -> currentWriter().filter((node) -> node != old).isPresent());
		return writer();
	}

	/**
	 * Starts a stopped or killed node again; returns once it has rejoined and is Synced.
	 */
	public void restart(GaleraNode node) {
		node.start();
	}

	/** Waits until every node runs, is Synced and counts all three in the cluster. */
	public void awaitSynced(Duration timeout) {
		FreePorts.await("every Galera node synced in a cluster of " + NODES, timeout,
				() -> this.nodes.stream()
					.allMatch((node) -> node.isRunning() && node.synced()
							&& String.valueOf(NODES).equals(node.status("wsrep_cluster_size"))));
	}

	@Override
	public synchronized void close() {
		this.balancer.close();
		// throwaway: no clean shutdown to wait for
		for (GaleraNode node : this.nodes) {
			node.kill();
			node.close();
		}
		ServerProcess.deleteRecursively(this.workDir);
	}

}
