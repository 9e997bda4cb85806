package io.kindling.swipe.message;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Consumer;
import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.datasource.ConnectionHolder;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The connection a message writer keeps from one group to the next, out of autocommit:
 * each group's transaction then begins with its first statement and ends with its
 * {@code COMMIT}, where a connection taken from the pool for each group costs two round
 * trips more on the writer's path ({@code SET autocommit=0} before, {@code =1} after),
 * while the sends of the next group wait. Only the writer's own thread uses it, and only
 * inside {@link #inTransaction}. It goes back to the pool when the writer has nothing to
 * write, and after any failure (the pool drops a broken connection).
 */
final class HeldConnection {

	private static final Logger log = LoggerFactory.getLogger(HeldConnection.class);

	private final DataSource dataSource;

	private final TransactionTemplate transactions;

	private @Nullable ConnectionHolder held;

	HeldConnection(DataSource dataSource, TransactionTemplate transactions) {
		this.dataSource = dataSource;
		this.transactions = transactions;
	}

	/**
	 * Runs the work in a transaction on the held connection (taken from the pool first if
	 * none is held).
	 */
	void inTransaction(Consumer<TransactionStatus> work) {
		ConnectionHolder holder = holder();
		// the transaction manager finds it bound and begins on it, leaving it open after
		TransactionSynchronizationManager.bindResource(this.dataSource, holder);
		boolean done = false;
		try {
			this.transactions.executeWithoutResult(work);
			done = true;
		}
		finally {
			TransactionSynchronizationManager.unbindResource(this.dataSource);
			if (!done) {
				release();
			}
		}
	}

	/** Gives the connection back to the pool, which restores its autocommit. */
	void release() {
		ConnectionHolder holder = this.held;
		if (holder == null) {
			return;
		}
		this.held = null;
		try {
			holder.getConnection().close();
		}
		catch (SQLException ex) {
			log.debug("Could not give a message writer's connection back", ex);
		}
	}

	private ConnectionHolder holder() {
		if (this.held == null) {
			try {
				Connection connection = this.dataSource.getConnection();
				try {
					connection.setAutoCommit(false);
				}
				catch (SQLException ex) {
					connection.close();
					throw ex;
				}
				this.held = new ConnectionHolder(connection);
			}
			catch (SQLException ex) {
				throw new CannotGetJdbcConnectionException("No connection for a message writer", ex);
			}
		}
		return this.held;
	}

}
