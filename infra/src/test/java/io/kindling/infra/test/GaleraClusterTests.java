package io.kindling.infra.test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import io.kindling.infra.servers.GaleraCluster;
import io.kindling.infra.servers.GaleraNode;
import io.kindling.infra.servers.MariaDbServer;
import io.kindling.infra.test.RealServers.Server;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The test harness's Galera cluster is the stack's: one writer behind the balancer, which
 * moves on when the writer is killed, Galera's rules enforced, and a killed node
 * rejoining with what it missed.
 */
@RealServers(value = Server.GALERA, database = "kindling_galera")
class GaleraClusterTests {

	@Test
	void aTableWithoutAPrimaryKeyIsRefused() throws SQLException {
		try (Connection connection = connect(); Statement statement = connection.createStatement()) {
			assertThatExceptionOfType(SQLException.class)
				.isThrownBy(() -> statement.execute("CREATE TABLE no_primary_key (note VARCHAR(10)) ENGINE = InnoDB"))
				.withMessageContaining("Galera replication not supported");
			statement.execute("CREATE TABLE with_primary_key (id INT PRIMARY KEY) ENGINE = InnoDB");
		}
	}

	@Test
	void killingTheWriterMovesEveryConnectionToANodeThatHasEveryCommittedRowAndTheKilledNodeRejoinsByIst()
			throws SQLException {
		GaleraCluster galera = RealServersExtension.galera();
		try (Connection connection = connect(); Statement statement = connection.createStatement()) {
			statement.execute("CREATE TABLE facts (id INT PRIMARY KEY, note VARCHAR(20)) ENGINE = InnoDB");
			for (int id = 1; id <= 100; id++) {
				statement.execute("INSERT INTO facts VALUES (" + id + ", 'before')");
			}
		}
		GaleraNode writer = galera.writer();

		writer.kill();
		assertThat(writer.isRunning()).isFalse();
		GaleraNode next = galera.awaitWriterOtherThan(writer, Duration.ofSeconds(30));

		try (Connection connection = connect(); Statement statement = connection.createStatement()) {
			assertThat(count(statement, "SELECT COUNT(*) FROM facts")).as("rows committed before the kill")
				.isEqualTo(100);
			for (int id = 101; id <= 150; id++) {
				statement.execute("INSERT INTO facts VALUES (" + id + ", 'after')");
			}
		}
		galera.restart(writer);
		galera.awaitSynced(Duration.ofSeconds(60));

		assertThat(writer.startPosition()).as("the position the killed node recovered from its own data").isNotNull();
		assertThat(writer.log()).contains("IST received");
		assertThat(writer.query("SELECT COUNT(*) FROM kindling_galera.facts").strip()).isEqualTo("150");
		assertThat(galera.writer()).as("the writer stays where it moved, not back to the rejoined node").isSameAs(next);
	}

	private static long count(Statement statement, String sql) throws SQLException {
		try (ResultSet rows = statement.executeQuery(sql)) {
			rows.next();
			return rows.getLong(1);
		}
	}

	private static Connection connect() throws SQLException {
		return DriverManager.getConnection(RealServersExtension.galera().jdbcUrl("kindling_galera"), MariaDbServer.USER,
				MariaDbServer.PASSWORD);
	}

}
