package io.kindling.swipe.swipe;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

import io.kindling.outbox.SqlTime;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.stereotype.Repository;

/** The statements on {@code swipe_history}, as SQL. */
@Repository
class SwipeHistory {

	private static final String COLUMNS = """
			swipe_id, request_id, request_hash, user_id, target_user_id, action, response_status, match_id,
			matched_at, created_at, undone_at""";

	private final JdbcClient jdbc;

	SwipeHistory(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * TX 1's insert, committed on its own before Redis is asked: stores the swipe unless
	 * the key is known. A PASS is final the moment it is stored
	 * ({@code response_status = 0}); a like stays NULL until decided. The row needs no
	 * {@code SELECT … FOR UPDATE} after a fresh insert (this statement wrote every column
	 * and holds its id); a known key is read by {@link #find} once the unique-key check
	 * has waited for its writer.
	 * <p>
	 * The insert is also refused when the user has an active swipe on the target under
	 * another key ({@code uk_swipe_user_active_target}); that earlier row's
	 * {@code replay_count} counts the refused attempt, so the column counts every
	 * duplicate attempt a row has seen: retries of its key and second swipes on its
	 * target.
	 * @return the new row's id, or empty when the key or the active target is known (the
	 * update on the existing row makes the driver report 2 rows instead of 1)
	 */
	OptionalLong insert(String requestId, String requestHash, long userId, long targetUserId, Action action,
			Instant now) {
		KeyHolder swipeId = new GeneratedKeyHolder();
		int affected = this.jdbc.sql("""
				INSERT INTO swipe_history (request_id, request_hash, user_id, target_user_id, action,
				                           response_status, created_at)
				VALUES (:requestId, :requestHash, :userId, :targetUserId, :action, :initialStatus, FROM_UNIXTIME(:now))
				ON DUPLICATE KEY UPDATE replay_count = replay_count + 1
				""")
			.param("requestId", requestId)
			.param("requestHash", requestHash)
			.param("userId", userId)
			.param("targetUserId", targetUserId)
			.param("action", action.name())
			.param("initialStatus", action.isLike() ? null : SwipeRow.NOT_MATCHED, java.sql.Types.TINYINT)
			.param("now", SqlTime.epochSeconds(now))
			.update(swipeId, "swipe_id");
		if (affected != 1) {
			return OptionalLong.empty();
		}
		return OptionalLong.of(Objects.requireNonNull(swipeId.getKey(), "the driver returned no swipe_id").longValue());
	}

	/** The row for this user and key, locked (TX 2 and the rewind). */
	SwipeRow lock(long userId, String requestId) {
		return this.jdbc.sql("SELECT " + COLUMNS + """

				FROM swipe_history
				WHERE user_id = :userId AND request_id = :requestId
				FOR UPDATE
				""").param("userId", userId).param("requestId", requestId).query(SwipeHistory::row).single();
	}

	Optional<SwipeRow> find(long userId, String requestId) {
		return this.jdbc.sql("SELECT " + COLUMNS + """

				FROM swipe_history
				WHERE user_id = :userId AND request_id = :requestId
				""").param("userId", userId).param("requestId", requestId).query(SwipeHistory::row).optional();
	}

	/**
	 * Finishes a non-match, once MySQL has confirmed there is no like back: when Redis
	 * cannot be trusted to know, the check and the answer are one statement. Both likes
	 * of a pair are committed before either side gets here, and each statement reads what
	 * was committed when it ran, so of two simultaneous likes at least one finds the
	 * other. A row already decided keeps its answer.
	 * @return whether this call finished the swipe as a non-match; false when there is a
	 * like back (a match to write) or the row was already decided
	 */
	boolean finishWithoutMatchUnlessLikedBack(long userId, String requestId) {
		return this.jdbc.sql("""
				UPDATE swipe_history own
				LEFT JOIN swipe_history back
				  ON back.user_id = own.target_user_id AND back.active_target = own.user_id
				 AND back.action IN ('LIKE', 'SUPER_LIKE')
				SET own.response_status = 0
				WHERE own.user_id = :userId AND own.request_id = :requestId AND own.response_status IS NULL
				  AND back.swipe_id IS NULL
				""").param("userId", userId).param("requestId", requestId).update() == 1;
	}

	/**
	 * The same, taking a shared lock so that the like cannot be rewound under a new
	 * match.
	 */
	boolean likesLocked(long likerId, long likedId) {
		return !this.jdbc.sql("""
				SELECT swipe_id FROM swipe_history
				WHERE user_id = :likerId AND active_target = :likedId AND action IN ('LIKE', 'SUPER_LIKE')
				LOCK IN SHARE MODE
				""").param("likerId", likerId).param("likedId", likedId).query(Long.class).list().isEmpty();
	}

	/** Finishes a non-match; a row already decided keeps its answer. */
	boolean finishWithoutMatch(long userId, String requestId) {
		return this.jdbc.sql("""
				UPDATE swipe_history
				SET response_status = 0
				WHERE user_id = :userId AND request_id = :requestId AND response_status IS NULL
				""").param("userId", userId).param("requestId", requestId).update() == 1;
	}

	/** TX 2: the swipe's part of the match. */
	void finishWithMatch(long userId, String requestId, long matchId, Instant matchedAt) {
		this.jdbc.sql("""
				UPDATE swipe_history
				SET response_status = 1, match_id = :matchId, matched_at = FROM_UNIXTIME(:matchedAt)
				WHERE user_id = :userId AND request_id = :requestId AND response_status IS NULL
				""")
			.param("matchId", matchId)
			.param("matchedAt", SqlTime.epochSeconds(matchedAt))
			.param("userId", userId)
			.param("requestId", requestId)
			.update();
	}

	Optional<SwipeRow> latest(long userId) {
		return this.jdbc.sql("SELECT " + COLUMNS + """

				FROM swipe_history
				WHERE user_id = :userId
				ORDER BY swipe_id DESC
				LIMIT 1
				""").param("userId", userId).query(SwipeHistory::row).optional();
	}

	Optional<SwipeRow> lockById(long swipeId) {
		return this.jdbc.sql("SELECT " + COLUMNS + """

				FROM swipe_history
				WHERE swipe_id = :swipeId
				FOR UPDATE
				""").param("swipeId", swipeId).query(SwipeHistory::row).optional();
	}

	void undo(long swipeId, Instant now) {
		this.jdbc.sql(
				"UPDATE swipe_history SET undone_at = FROM_UNIXTIME(:now) WHERE swipe_id = :swipeId AND undone_at IS NULL")
			.param("now", SqlTime.epochSeconds(now))
			.param("swipeId", swipeId)
			.update();
	}

	/**
	 * Swipes still undecided since before {@code cutoff}: their request died between
	 * steps.
	 */
	List<SwipeRow> unfinished(Instant cutoff, int limit) {
		return this.jdbc.sql("SELECT " + COLUMNS + """

				FROM swipe_history
				WHERE response_status IS NULL AND created_at < FROM_UNIXTIME(:cutoff)
				ORDER BY response_status, created_at
				LIMIT :limit
				""")
			.param("cutoff", SqlTime.epochSeconds(cutoff))
			.param("limit", limit)
			.query(SwipeHistory::row)
			.list();
	}

	private static SwipeRow row(ResultSet rs, int row) throws SQLException {
		int status = rs.getInt("response_status");
		Integer responseStatus = rs.wasNull() ? null : status;
		long matchId = rs.getLong("match_id");
		Long match = rs.wasNull() ? null : matchId;
		return new SwipeRow(rs.getLong("swipe_id"), rs.getString("request_id"), rs.getString("request_hash"),
				rs.getLong("user_id"), rs.getLong("target_user_id"), Action.valueOf(rs.getString("action")),
				responseStatus, match, instant(rs.getTimestamp("matched_at")),
				rs.getTimestamp("created_at").toInstant(), instant(rs.getTimestamp("undone_at")));
	}

	private static @Nullable Instant instant(@Nullable Timestamp timestamp) {
		return (timestamp != null) ? timestamp.toInstant() : null;
	}

}
