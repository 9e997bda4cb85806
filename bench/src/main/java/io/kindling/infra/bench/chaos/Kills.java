package io.kindling.infra.bench.chaos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Stream;

import io.kindling.infra.bench.BenchHost;
import io.kindling.infra.bench.ClusterStack;
import io.kindling.infra.kafka.KafkaCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import redis.clients.jedis.Jedis;

/**
 * The kills and the recoveries: one process of each kind killed with SIGKILL, how long
 * until everything was served again, then {@code ./kindling up --cluster} and how long
 * until the process had rejoined its cluster, and how.
 */
record Kills(ClusterStack stack, Endpoints endpoints, ChaosLoad load, Checks checks) {

	record Victim(String kind, Supplier<String> name) {

	}

	record Kill(String kind, String name, String servedAgain, String rejoined, String how) {

	}

	/** The victims in the order they are killed. */
	List<Victim> victims() {
		return List.of(new Victim("database writer", this::databaseWriter),
				new Victim("Redis primary", this::redisPrimary), new Victim("Kafka node", () -> "kafka-2"),
				new Victim("matching-service instance", () -> "matching-service-1"),
				new Victim("swipe-service instance", () -> "swipe-service-1"),
				new Victim("outbox-relay instance", () -> "outbox-relay-1"));
	}

	/**
	 * SIGKILL, then: until swipes, joins and match events all succeed again; then
	 * {@code ./kindling up --cluster}, and until the process is back in its cluster.
	 */
	Kill kill(Victim victim) throws Exception {
		String name = victim.name().get();
		long pid = this.stack.pidOf(name);
		ProcessHandle process = ProcessHandle.of(pid)
			.orElseThrow(() -> new IllegalStateException(name + " is not running"));
		long killed = System.nanoTime();
		process.destroyForcibly();
		process.onExit().get(10, TimeUnit.SECONDS);
		System.out.printf("%n%s: killed %s (pid %d) with SIGKILL%n", victim.kind(), name, pid);
		String servedAgain = until(Duration.ofSeconds(90), () -> this.load.swipesServed.after(killed)
				&& this.load.joinsServed.after(killed) && this.load.eventsSeen.after(killed), killed);
		// the survivors take over before it is started again, so that it rejoins as what
		// is left for it: a started-again primary whose replica was not yet promoted
		// would simply be the primary again
		String noticed = until(Duration.ofSeconds(60), () -> takenOver(name), killed);
		long logBefore = logSize(name);
		long restarting = System.nanoTime();
		int up = this.stack.kindling(Duration.ofMinutes(10), "up", "--cluster");
		this.checks.check(up == 0, "./kindling up --cluster starts %s again", name);
		String rejoined = until(Duration.ofSeconds(180), () -> rejoined(name), restarting);
		String how = how(name, logBefore);
		System.out.printf("  served again after %s; taken over after %s; rejoined %s after up began (%s)%n",
				servedAgain, noticed, rejoined, how);
		return new Kill(victim.kind(), name, servedAgain, rejoined, how);
	}

	private String databaseWriter() {
		try (Connection connection = this.endpoints.database("");
				Statement statement = connection.createStatement();
				ResultSet node = statement.executeQuery("SELECT @@wsrep_node_name")) {
			node.next();
			return node.getString(1);
		}
		catch (SQLException ex) {
			throw new IllegalStateException("no database writer answers", ex);
		}
	}

	private String redisPrimary() {
		for (int i = 0; i < 6; i++) {
			try (Jedis jedis = this.endpoints.redis(i)) {
				if (jedis.info("replication").contains("role:master")) {
					return "redis-" + (i + 1);
				}
			}
		}
		throw new IllegalStateException("no Redis primary answers");
	}

	/**
	 * Whether the survivors have taken over from the killed process: a Redis replica
	 * promoted (three primaries answer), the Galera nodes left a cluster of two; the
	 * balancer's checks (2 s apart, two misses) and Kafka's fencing (3 s) in 5 s.
	 */
	private boolean takenOver(String name) {
		if (name.startsWith("redis-")) {
			return livePrimaries() == 3;
		}
		if (name.startsWith("mariadb-")) {
			return Stream.of("mariadb-1", "mariadb-2", "mariadb-3")
				.filter((node) -> !node.equals(name))
				.allMatch((node) -> "2".equals(galeraStatus(node, "wsrep_cluster_size")));
		}
		BenchHost.sleep(Duration.ofSeconds(5));
		return true;
	}

	private int livePrimaries() {
		int primaries = 0;
		for (int i = 0; i < 6; i++) {
			try (Jedis jedis = this.endpoints.redis(i)) {
				if (jedis.info("replication").contains("role:master")) {
					primaries++;
				}
			}
			catch (RuntimeException ex) {
				// the killed node
			}
		}
		return primaries;
	}

	private boolean rejoined(String name) {
		try {
			if (name.startsWith("mariadb-")) {
				return "4".equals(galeraStatus(name, "wsrep_local_state"))
						&& "3".equals(galeraStatus(name, "wsrep_cluster_size"));
			}
			if (name.startsWith("redis-")) {
				try (Jedis jedis = this.endpoints.redis(name)) {
					String replication = jedis.info("replication");
					return replication.contains("role:slave") && replication.contains("master_link_status:up");
				}
			}
			if (name.startsWith("kafka-")) {
				return kafkaFullyReplicated();
			}
			return true;
		}
		catch (Exception ex) {
			return false;
		}
	}

	/**
	 * A status variable of one Galera node, asked directly; empty when it does not
	 * answer.
	 */
	private String galeraStatus(String node, String variable) {
		try (Connection connection = this.endpoints.galera(node);
				Statement statement = connection.createStatement();
				ResultSet row = statement.executeQuery("SHOW GLOBAL STATUS LIKE '" + variable + "'")) {
			return row.next() ? row.getString(2) : "";
		}
		catch (SQLException ex) {
			return "";
		}
	}

	private long logSize(String name) throws IOException {
		Path log = this.stack.state().resolve("logs/" + name + ".log");
		return Files.exists(log) ? Files.size(log) : 0;
	}

	/**
	 * How it rejoined: by IST or SST for a Galera node (from what its log gained since
	 * {@code from}), as a replica for Redis.
	 */
	private String how(String name, long from) throws IOException {
		if (name.startsWith("mariadb-")) {
			byte[] log = Files.readAllBytes(this.stack.state().resolve("logs/" + name + ".log"));
			String since = new String(log, (int) Math.min(from, log.length), (int) Math.max(0, log.length - from),
					StandardCharsets.UTF_8);
			return since.contains("IST received") ? "IST (the write sets it missed)"
					: since.contains("SST") ? "SST (a copy of the data dir)" : "?";
		}
		if (name.startsWith("redis-")) {
			try (Jedis jedis = this.endpoints.redis(name)) {
				return jedis.info("replication").contains("role:slave") ? "as a replica of the promoted primary"
						: "as a primary: its replica had not been promoted";
			}
		}
		if (name.startsWith("kafka-")) {
			return "caught up: every partition's replicas in sync";
		}
		return "healthy, behind the balancer";
	}

	private boolean kafkaFullyReplicated() {
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, this.endpoints.kafka(),
				AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 3000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
				5000))) {
			return KafkaCluster.fullyReplicated(admin);
		}
	}

	/**
	 * How long from {@code since} until the condition held, or "not within" the limit.
	 */
	private static String until(Duration limit, BooleanSupplier condition, long since) {
		long deadline = System.nanoTime() + limit.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() > deadline) {
				return "not within " + limit.toSeconds() + " s";
			}
			BenchHost.sleep(Duration.ofMillis(100));
		}
		return "%.1f s".formatted((System.nanoTime() - since) / 1e9);
	}

}
