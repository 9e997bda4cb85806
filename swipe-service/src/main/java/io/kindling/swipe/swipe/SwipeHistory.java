package io.kindling.swipe.swipe;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The seed's statements on {@code swipe_history}, as SQL. */
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
	 * What a new swipe is checked against, in one round trip: does the target exist, has
	 * this user an active swipe on them under another key, how many swipes of this kind
	 * today, and is this key already known (then it is a retry and the checks do not
	 * apply).
	 */
	Checks checks(long userId, long targetUserId, Action action, String requestId, Instant dayStart) {
		return this.jdbc.sql("""
				SELECT
				  (SELECT COUNT(*) FROM profiles WHERE user_id = :targetUserId) AS target_known,
				  (SELECT COUNT(*) FROM swipe_history
				   WHERE user_id = :userId AND request_id = :requestId) AS request_known,
				  (SELECT COUNT(*) FROM swipe_history
				   WHERE user_id = :userId AND target_user_id = :targetUserId AND undone_at IS NULL
				     AND request_id <> :requestId) AS earlier_swipes,
				  CASE WHEN :action = 'PASS' THEN 0 ELSE
				    (SELECT COUNT(*) FROM swipe_history
				     WHERE user_id = :userId AND action = :action AND created_at >= :dayStart AND undone_at IS NULL)
				  END AS today
				""")
			.param("userId", userId)
			.param("targetUserId", targetUserId)
			.param("requestId", requestId)
			.param("action", action.name())
			.param("dayStart", Timestamp.from(dayStart))
			.query((rs, row) -> new Checks(rs.getLong("target_known") > 0, rs.getLong("request_known") > 0,
					rs.getLong("earlier_swipes") > 0, rs.getLong("today")))
			.single();
	}

	/**
	 * TX 1, first statement: stores the swipe unless the key is known. A PASS is final
	 * the moment it is stored ({@code response_status = 0}); a like stays NULL until
	 * decided.
	 * @return whether this call inserted the row (the update on a known key counts the
	 * retry, which makes the driver report 2 instead of 1)
	 */
	boolean insert(String requestId, String requestHash, long userId, long targetUserId, Action action, Instant now) {
		int affected = this.jdbc.sql("""
				INSERT INTO swipe_history (request_id, request_hash, user_id, target_user_id, action,
				                           response_status, created_at)
				VALUES (:requestId, :requestHash, :userId, :targetUserId, :action, :initialStatus, :now)
				ON DUPLICATE KEY UPDATE replay_count = replay_count + 1
				""")
			.param("requestId", requestId)
			.param("requestHash", requestHash)
			.param("userId", userId)
			.param("targetUserId", targetUserId)
			.param("action", action.name())
			.param("initialStatus", action.isLike() ? null : SwipeRow.NOT_MATCHED, java.sql.Types.TINYINT)
			.param("now", Timestamp.from(now))
			.update();
		return affected == 1;
	}

	/** TX 1, second statement: the row for this user and key, locked. */
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
	 * Whether MySQL knows an active like from {@code likerId} to {@code likedId}: the
	 * truth when Redis cannot be trusted to know.
	 */
	boolean likes(long likerId, long likedId) {
		return this.jdbc.sql("""
				SELECT COUNT(*) FROM swipe_history
				WHERE user_id = :likerId AND target_user_id = :likedId
				  AND action IN ('LIKE', 'SUPER_LIKE') AND undone_at IS NULL
				""").param("likerId", likerId).param("likedId", likedId).query(Long.class).single() > 0;
	}

	/**
	 * The same, taking a shared lock so that the like cannot be rewound under a new
	 * match.
	 */
	boolean likesLocked(long likerId, long likedId) {
		return !this.jdbc.sql("""
				SELECT swipe_id FROM swipe_history
				WHERE user_id = :likerId AND target_user_id = :likedId
				  AND action IN ('LIKE', 'SUPER_LIKE') AND undone_at IS NULL
				LOCK IN SHARE MODE
				""").param("likerId", likerId).param("likedId", likedId).query(Long.class).list().isEmpty();
	}

	/** The seed's finalization of a non-match; a row already decided keeps its answer. */
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
				SET response_status = 1, match_id = :matchId, matched_at = :matchedAt
				WHERE user_id = :userId AND request_id = :requestId AND response_status IS NULL
				""")
			.param("matchId", matchId)
			.param("matchedAt", Timestamp.from(matchedAt))
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
		this.jdbc.sql("UPDATE swipe_history SET undone_at = :now WHERE swipe_id = :swipeId AND undone_at IS NULL")
			.param("now", Timestamp.from(now))
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
				WHERE response_status IS NULL AND created_at < :cutoff
				ORDER BY response_status, created_at
				LIMIT :limit
				""").param("cutoff", Timestamp.from(cutoff)).param("limit", limit).query(SwipeHistory::row).list();
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

	record Checks(boolean targetKnown, boolean requestKnown, boolean earlierSwipe, long today) {

	}

}
