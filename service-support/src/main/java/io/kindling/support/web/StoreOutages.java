package io.kindling.support.web;

import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.List;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

/**
 * Tells a store that did not answer (worth a retry: 503) from a store that answered "no"
 * (a cross-slot command, a script error, bad SQL: a bug, 500).
 */
final class StoreOutages {

	/**
	 * Redis replies that mean "not now" rather than "never": a cluster or a replica in
	 * the middle of a failover, a dataset still loading, a script still running. Spring
	 * Data Redis passes them on as API misuse, like a cross-slot command.
	 */
	private static final List<String> TRANSIENT_REDIS_ERRORS = List.of("CLUSTERDOWN ", "TRYAGAIN ", "LOADING ",
			"MASTERDOWN ", "READONLY ", "BUSY ");

	private StoreOutages() {
	}

	static boolean isOutage(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof DataAccessResourceFailureException || cause instanceof TransientDataAccessException
					|| cause instanceof RecoverableDataAccessException
					|| cause instanceof CannotCreateTransactionException || cause instanceof SQLTransientException
					|| cause instanceof SQLRecoverableException || cause instanceof ConnectException
					|| cause instanceof SocketTimeoutException || isConnectionLost(cause)
					|| isTransientRedisError(cause)) {
				return true;
			}
			// a commit or rollback that could not be completed: the connection dropped
			// (the database's writer killed), so the rollback on it failed too; the
			// transaction's outcome is unknown, and a retry of the same request is what
			// finds it out. Unless the transaction had failed for a reason of its own,
			// kept apart as its application exception.
			if (cause instanceof TransactionSystemException failed) {
				Throwable application = failed.getApplicationException();
				return application == null || isOutage(application);
			}
			// a cluster client out of attempts ("No more cluster attempts left") keeps
			// each
			// attempt's failure here, not as its cause: a primary killed before its
			// replica
			// took over is a refused connection on every attempt
			for (Throwable suppressed : cause.getSuppressed()) {
				if (isOutage(suppressed)) {
					return true;
				}
			}
			if (cause.getCause() == cause) {
				break;
			}
		}
		return false;
	}

	/** SQLState class 08: the connection is gone (closed, dropped, never made). */
	private static boolean isConnectionLost(Throwable failure) {
		return failure instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().startsWith("08");
	}

	private static boolean isTransientRedisError(Throwable failure) {
		String message = failure.getMessage();
		boolean fromRedis = failure instanceof DataAccessException
				|| failure.getClass().getName().startsWith("redis.clients.");
		return fromRedis && message != null && TRANSIENT_REDIS_ERRORS.stream().anyMatch(message::startsWith);
	}

}
