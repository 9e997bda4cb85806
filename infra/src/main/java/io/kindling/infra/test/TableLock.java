package io.kindling.infra.test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import javax.sql.DataSource;

/**
 * A MariaDB table held with {@code LOCK TABLES ... WRITE} on a connection of its own:
 * every statement of the service that reads or writes it waits until {@link #close()},
 * which makes requests as slow as a test wants, on the real database.
 *
 * <pre>
 * try (TableLock lock = TableLock.hold(dataSource, "swipe_history")) {
 *     // send requests, then
 *     lock.awaitWaiting(4, Duration.ofSeconds(60));
 * }
 * </pre>
 */
public final class TableLock implements AutoCloseable {

	private final DataSource dataSource;

	private final Connection holder;

	private TableLock(DataSource dataSource, Connection holder) {
		this.dataSource = dataSource;
		this.holder = holder;
	}

	public static TableLock hold(DataSource dataSource, String table) throws SQLException {
		Connection holder = dataSource.getConnection();
		try (Statement statement = holder.createStatement()) {
			statement.execute("LOCK TABLES " + table + " WRITE");
		}
		catch (SQLException ex) {
			holder.close();
			throw ex;
		}
		return new TableLock(dataSource, holder);
	}

	/**
	 * Waits until at least {@code statements} statements of this database wait on a table
	 * lock, as the server's process list shows them (other tests' databases on the same
	 * server are not counted), or have run for more than a second. A transaction that
	 * took a row's (or a gap's) lock before it came to the locked table keeps that lock
	 * while it waits there, and one that needs the same lock is held behind it just as
	 * surely; the list of row locks itself takes a privilege the services' user lacks.
	 * @throws AssertionError if fewer do within {@code timeout}
	 */
	public void awaitWaiting(int statements, Duration timeout) throws SQLException, InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		int waiting = 0;
		try (Connection monitor = this.dataSource.getConnection(); Statement statement = monitor.createStatement()) {
			while (System.nanoTime() < deadline) {
				try (ResultSet count = statement.executeQuery("""
						SELECT COUNT(*) FROM information_schema.processlist
						WHERE db = DATABASE() AND command = 'Query' AND id <> CONNECTION_ID()
						  AND (state LIKE 'Waiting for table%' OR time_ms > 1000)
						""")) {
					count.next();
					waiting = count.getInt(1);
				}
				if (waiting >= statements) {
					return;
				}
				Thread.sleep(50);
			}
		}
		throw new AssertionError(
				statements + " statements were to wait on the locked table or behind it, " + waiting + " did");
	}

	/** Unlocks the table; the statements that waited go on. */
	@Override
	public void close() throws SQLException {
		try (Connection holder = this.holder; Statement statement = holder.createStatement()) {
			statement.execute("UNLOCK TABLES");
		}
	}

}
