package io.kindling.swipe.block;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The one place where a block and a match of the same two people are serialised: the
 * pair's row of {@code pair_locks}, which a swipe's TX 2 and a block both lock first.
 * Whichever of them commits second has waited for the first and reads what it wrote: the
 * match's transaction sees the block and makes no match, or the block sees the match and
 * ends it. So a blocked pair never has a live match, in whatever order a block and two
 * likes arrive.
 */
@Repository
public class PairLock {

	private final JdbcClient jdbc;

	PairLock(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * Locks the pair until the caller's transaction ends and says whether either of the
	 * two has blocked the other. Call it before anything else that transaction reads
	 * about the pair.
	 */
	public boolean lockAndCheckBlocked(long userA, long userB) {
		lock(userA, userB);
		// a locking read sees the latest committed rows whatever the isolation level;
		// a block of this pair committed before the lock was granted is among them
		return !this.jdbc.sql("""
				SELECT user_id FROM user_blocks
				WHERE (user_id = :a AND blocked_user_id = :b) OR (user_id = :b AND blocked_user_id = :a)
				LOCK IN SHARE MODE
				""").param("a", userA).param("b", userB).query(Long.class).list().isEmpty();
	}

	/**
	 * Locks the pair's row until the caller's transaction ends, making it the first time.
	 */
	void lock(long userA, long userB) {
		if (!TransactionSynchronizationManager.isActualTransactionActive()) {
			throw new IllegalStateException("a pair's lock is held by a transaction");
		}
		// the update of an existing row takes its exclusive lock as an insert of a new
		// one does
		this.jdbc.sql("""
				INSERT INTO pair_locks (user_id_1, user_id_2) VALUES (:low, :high)
				ON DUPLICATE KEY UPDATE user_id_1 = user_id_1
				""").param("low", Math.min(userA, userB)).param("high", Math.max(userA, userB)).update();
	}

}
