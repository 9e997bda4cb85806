package io.kindling.swipe.block;

import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.PessimisticLockingFailureException;

/**
 * Runs a transaction again when InnoDB chose it as a deadlock's victim (the two sides of
 * a pair, a request and its retry, a block and a like all meet on the same rows). Only
 * for steps that are idempotent, so that the loser may simply run again.
 */
public final class LockConflicts {

	private static final Logger log = LoggerFactory.getLogger(LockConflicts.class);

	private static final int ATTEMPTS = 5;

	private LockConflicts() {
	}

	/**
	 * The step's result, after at most five attempts with a short random pause between.
	 */
	public static <T> T retried(Supplier<T> step) {
		for (int attempt = 1;; attempt++) {
			try {
				return step.get();
			}
			catch (PessimisticLockingFailureException ex) {
				if (attempt >= ATTEMPTS) {
					throw ex;
				}
				log.debug("lost a lock race, running again (attempt {})", attempt, ex);
				try {
					Thread.sleep(ThreadLocalRandom.current().nextLong(1, 5L * attempt));
				}
				catch (InterruptedException interrupted) {
					Thread.currentThread().interrupt();
					throw ex;
				}
			}
		}
	}

}
