package io.kindling.swipe.match;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.kindling.outbox.SqlTime;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The {@code matches} table, as SQL, in the caller's transaction. Its effects elsewhere
 * are the caller's to write in that transaction, each by name: the outbox row
 * ({@link MatchOutbox}) and the push to both people ({@link MatchPush}).
 */
@Repository
public class MatchStore {

	private final JdbcClient jdbc;

	MatchStore(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * @param match the pair's match
	 * @param isNew whether this call inserted it (the one call that pushes it)
	 */
	public record Created(MatchRef match, boolean isNew) {

	}

	/**
	 * Idempotent match insertion: one row per unordered pair however many requests race
	 * here; {@link Created#isNew} is true for the one call that inserted it. The row is
	 * read with a locking read (the insert holds its lock already), which sees it even
	 * when another transaction committed it after this one's snapshot began.
	 */
	public Created createIfAbsent(long userA, long userB, Instant now) {
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
				FOR UPDATE
				""").param("low", low).param("high", high).query(MatchStore::ref).single();
		return new Created(match, inserted == 1);
	}

	/**
	 * Whether the pair's match was ended (unmatch, block): such a pair never matches
	 * again, since the row, unique per pair, stays.
	 */
	public boolean endedBetween(long userA, long userB) {
		return this.jdbc.sql("""
				SELECT COUNT(*) FROM matches
				WHERE user_id_1 = :low AND user_id_2 = :high AND removed_at IS NOT NULL
				""")
			.param("low", Math.min(userA, userB))
			.param("high", Math.max(userA, userB))
			.query(Long.class)
			.single() > 0;
	}

	/**
	 * Ends the pair's live match, if it has one, in the caller's transaction: soft (the
	 * row stays, so the pair never matches again).
	 * @return the removal, for the caller's outbox row and push; empty when there was no
	 * live match
	 */
	public Optional<MatchRemoved> endBetween(long userA, long userB, long removedBy, RemovalReason reason,
			Instant now) {
		if (!TransactionSynchronizationManager.isActualTransactionActive()) {
			throw new IllegalStateException("a match's end and its outbox row are written in one transaction");
		}
		return this.jdbc.sql("""
				SELECT match_id, user_id_1, user_id_2, matched_at FROM matches
				WHERE user_id_1 = :low AND user_id_2 = :high AND removed_at IS NULL
				FOR UPDATE
				""")
			.param("low", Math.min(userA, userB))
			.param("high", Math.max(userA, userB))
			.query(MatchStore::ref)
			.optional()
			.map((match) -> end(match, removedBy, reason, now));
	}

	/**
	 * Ends every live match of the user, in the caller's transaction, each as
	 * {@link #endBetween} ends one, with the user as the one who removed it.
	 * @return the removals, for the caller's outbox rows and pushes
	 */
	public List<MatchRemoved> endAllOf(long userId, RemovalReason reason, Instant now) {
		if (!TransactionSynchronizationManager.isActualTransactionActive()) {
			throw new IllegalStateException("a match's end and its outbox row are written in one transaction");
		}
		// each column walks its own index; the locks keep an unmatch or a block of the
		// same match waiting until this transaction has ended it
		List<MatchRef> live = new ArrayList<>();
		for (String column : List.of("user_id_1", "user_id_2")) {
			live.addAll(this.jdbc.sql("""
					SELECT match_id, user_id_1, user_id_2, matched_at FROM matches
					WHERE %s = :userId AND removed_at IS NULL
					FOR UPDATE
					""".formatted(column)).param("userId", userId).query(MatchStore::ref).list());
		}
		return live.stream().map((match) -> end(match, userId, reason, now)).toList();
	}

	/**
	 * Ends a live match the caller has locked, whatever the reason (unmatch, block, ban).
	 */
	MatchRemoved end(MatchRef match, long removedBy, RemovalReason reason, Instant now) {
		this.jdbc.sql("""
				UPDATE matches SET removed_at = FROM_UNIXTIME(:now), removed_by = :removedBy, removal_reason = :reason
				WHERE match_id = :matchId AND removed_at IS NULL
				""")
			.param("now", SqlTime.epochSeconds(now))
			.param("removedBy", removedBy)
			.param("reason", reason.name())
			.param("matchId", match.matchId())
			.update();
		return new MatchRemoved(match.matchId(), match.userId1(), match.userId2(), match.matchedAt(), now, removedBy,
				reason);
	}

	static MatchRef ref(ResultSet rs, int row) throws SQLException {
		return new MatchRef(rs.getLong("match_id"), rs.getLong("user_id_1"), rs.getLong("user_id_2"),
				rs.getTimestamp("matched_at").toInstant());
	}

	/**
	 * The user's live match of this id, share-locked until the caller's transaction ends:
	 * an unmatch, a block or a ban that would end it waits for that transaction, or,
	 * having committed first, is seen by this read. Someone else's match is as absent as
	 * a missing one.
	 */
	public Optional<MatchRef> lockLive(long matchId, long userId) {
		if (!TransactionSynchronizationManager.isActualTransactionActive()) {
			throw new IllegalStateException("a match is locked by a transaction");
		}
		return this.jdbc.sql("""
				SELECT match_id, user_id_1, user_id_2, matched_at FROM matches
				WHERE match_id = :matchId AND removed_at IS NULL
				LOCK IN SHARE MODE
				""")
			.param("matchId", matchId)
			.query(MatchStore::ref)
			.optional()
			.filter((match) -> match.userId1() == userId || match.userId2() == userId);
	}

	/**
	 * {@link #lockLive(long, long)} for many matches in one statement: the live ones
	 * among them, by id, each share-locked; the caller checks who is in each.
	 */
	public Map<Long, MatchRef> lockLive(Collection<Long> matchIds) {
		if (!TransactionSynchronizationManager.isActualTransactionActive()) {
			throw new IllegalStateException("a match is locked by a transaction");
		}
		Map<Long, MatchRef> live = new HashMap<>();
		this.jdbc.sql("""
				SELECT match_id, user_id_1, user_id_2, matched_at FROM matches
				WHERE match_id IN (:matchIds) AND removed_at IS NULL
				LOCK IN SHARE MODE
				""")
			.param("matchIds", matchIds)
			.query(MatchStore::ref)
			.list()
			.forEach((match) -> live.put(match.matchId(), match));
		return live;
	}

	/** The user's live match of this id, read without a lock. */
	public Optional<MatchRef> live(long matchId, long userId) {
		return this.jdbc.sql("""
				SELECT match_id, user_id_1, user_id_2, matched_at FROM matches
				WHERE match_id = :matchId AND removed_at IS NULL
				""")
			.param("matchId", matchId)
			.query(MatchStore::ref)
			.optional()
			.filter((match) -> match.userId1() == userId || match.userId2() == userId);
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
