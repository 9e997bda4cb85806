package io.kindling.support.web;

import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.transaction.CannotCreateTransactionException;

/**
 * Tells a store that did not answer (worth a retry: 503) from a store that answered "no"
 * (a cross-slot command, a script error, bad SQL: a bug, 500).
 */
final class StoreOutages {

	private StoreOutages() {
	}

	static boolean isOutage(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof DataAccessResourceFailureException || cause instanceof TransientDataAccessException
					|| cause instanceof RecoverableDataAccessException
					|| cause instanceof CannotCreateTransactionException || cause instanceof SQLTransientException
					|| cause instanceof SQLRecoverableException || cause instanceof ConnectException
					|| cause instanceof SocketTimeoutException) {
				return true;
			}
			if (cause.getCause() == cause) {
				break;
			}
		}
		return false;
	}

}
