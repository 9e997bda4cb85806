package io.kindling.swipe.match;

import java.sql.Timestamp;
import java.time.Instant;

import io.kindling.outbox.SqlTime;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The {@code matches} table and its {@code MATCH_CREATED} outbox row, written together in
 * the caller's transaction; a new match is pushed to both people once it commits.
 */
@Repository
public class MatchStore {

	private final JdbcClient jdbc;

	private final MatchOutbox outbox;

	private final MatchPush push;

	MatchStore(JdbcClient jdbc, MatchOutbox outbox, MatchPush push) {
		this.jdbc = jdbc;
		this.outbox = outbox;
		this.push = push;
	}

	/**
	 * Idempotent match insertion: one row per unordered pair however many requests race
	 * here, one {@code MATCH_CREATED} row for it, and one push, from the call that
	 * inserted the row.
	 */
	public MatchRef createIfAbsent(long userA, long userB, Instant now) {
		if (!TransactionSynchronizationManager.isActualTransactionActive()) {
			throw new IllegalStateException("a match and its outbox row are written in one transaction");
		}
		long low = Math.min(userA, userB);
		long high = Math.max(userA, userB);
		// IGNORE, not ON DUPLICATE KEY UPDATE: the driver counts a duplicate as a row
		// "found" there, and the count must tell whether this call made the match
		int inserted = this.jdbc.sql("""
				INSERT IGNORE INTO matches (user_id_1, user_id_2, matched_at)
				VALUES (:low, :high, FROM_UNIXTIME(:now))
				""").param("low", low).param("high", high).param("now", SqlTime.epochSeconds(now)).update();
		MatchRef match = this.jdbc.sql("""
				SELECT match_id, user_id_1, user_id_2, matched_at
				FROM matches
				WHERE user_id_1 = :low AND user_id_2 = :high
				""")
			.param("low", low)
			.param("high", high)
			.query((rs, row) -> new MatchRef(rs.getLong("match_id"), rs.getLong("user_id_1"), rs.getLong("user_id_2"),
					rs.getTimestamp("matched_at").toInstant()))
			.single();
		this.outbox.matchCreated(match, now);
		if (inserted == 1) {
			this.push.created(match);
		}
		return match;
	}

	/** Whether the pair has a match nobody has removed. */
	public boolean activeBetween(long userA, long userB) {
		return this.jdbc.sql("""
				SELECT COUNT(*) FROM matches
				WHERE user_id_1 = :low AND user_id_2 = :high AND removed_at IS NULL
				""")
			.param("low", Math.min(userA, userB))
			.param("high", Math.max(userA, userB))
			.query(Long.class)
			.single() > 0;
	}

}
