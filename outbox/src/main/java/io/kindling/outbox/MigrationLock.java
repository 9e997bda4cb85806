package io.kindling.outbox;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

import javax.sql.DataSource;

import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.UncategorizedSQLException;

/**
 * One instance at a time migrates a database: a named lock ({@code GET_LOCK}, per
 * database) held on a connection of its own around all of an instance's migrations, its
 * service's and its outbox table's. Flyway takes such a lock itself on MySQL and MariaDB,
 * but not on a Galera node ({@code wsrep_on}): there it locks the rows of its history
 * table instead, which the first DDL's implicit commit lets go, so two instances starting
 * together could both run a migration. Behind the cluster's balancer every instance
 * reaches the same node, where a named lock holds; a writer that dies takes the lock with
 * it, and the migration it was running fails.
 */
final class MigrationLock {

	/**
	 * Long enough for another instance's migrations, short enough to fail a stuck start.
	 */
	static final Duration WAIT = Duration.ofMinutes(5);

	private static final String LOCK = "SELECT GET_LOCK(CONCAT('kindling.migrations.', DATABASE()), ?)";

	private static final String UNLOCK = "SELECT RELEASE_LOCK(CONCAT('kindling.migrations.', DATABASE()))";

	private MigrationLock() {
	}

	/** Runs the migrations while holding the database's migration lock. */
	static void around(DataSource dataSource, Runnable migrations) {
		try (Connection connection = dataSource.getConnection()) {
			lock(connection);
			try {
				migrations.run();
			}
			finally {
				try (PreparedStatement unlock = connection.prepareStatement(UNLOCK)) {
					unlock.execute();
				}
			}
		}
		catch (SQLException ex) {
			throw new CannotGetJdbcConnectionException("could not take or give back the migration lock", ex);
		}
	}

	private static void lock(Connection connection) throws SQLException {
		try (PreparedStatement lock = connection.prepareStatement(LOCK)) {
			lock.setLong(1, WAIT.toSeconds());
			try (ResultSet taken = lock.executeQuery()) {
				taken.next();
				int result = taken.getInt(1);
				if (taken.wasNull() || result != 1) {
					throw new UncategorizedSQLException("GET_LOCK", LOCK,
							new SQLException("another instance held the migration lock for over " + WAIT));
				}
			}
		}
	}

}
