package io.kindling.swipe.boost;

import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import io.kindling.outbox.SqlTime;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The statements on {@code boosts} and {@code boost_views}, the boosts' truth. */
@Repository
class BoostStore {

	private final JdbcClient jdbc;

	BoostStore(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * Locks the user's profile row until the transaction ends: two boosts of one user
	 * started at once queue here, so the second sees the first.
	 * @return whether the user has a profile
	 */
	boolean lockUser(long userId) {
		return !this.jdbc.sql("SELECT user_id FROM profiles WHERE user_id = :userId FOR UPDATE")
			.param("userId", userId)
			.query(Long.class)
			.list()
			.isEmpty();
	}

	/** The user's last boost, running or not. */
	Optional<Boost> latest(long userId) {
		return this.jdbc.sql("""
				SELECT boost_id, started_at, expires_at, views FROM boosts
				WHERE user_id = :userId
				ORDER BY started_at DESC
				LIMIT 1
				""").param("userId", userId).query(BoostStore::boost).optional();
	}

	void insert(long userId, String cell, Instant startedAt, Instant expiresAt) {
		this.jdbc.sql("""
				INSERT INTO boosts (user_id, cell, started_at, expires_at)
				VALUES (:userId, :cell, FROM_UNIXTIME(:startedAt), FROM_UNIXTIME(:expiresAt))
				""")
			.param("userId", userId)
			.param("cell", cell)
			.param("startedAt", SqlTime.epochSeconds(startedAt))
			.param("expiresAt", SqlTime.epochSeconds(expiresAt))
			.update();
	}

	/** The cell's boosts running at {@code now}, to load its Redis set. */
	List<CellBoost> runningIn(String cell, Instant now) {
		return this.jdbc.sql("""
				SELECT user_id, expires_at FROM boosts
				WHERE cell = :cell AND expires_at > FROM_UNIXTIME(:now) AND started_at <= FROM_UNIXTIME(:now)
				""")
			.param("cell", cell)
			.param("now", SqlTime.epochSeconds(now))
			.query((rs, row) -> new CellBoost(rs.getLong("user_id"), rs.getTimestamp("expires_at").toInstant()))
			.list();
	}

	/**
	 * The running boosts of these users, with their views so far and whether this viewer
	 * was served them already. Their rows stay locked until the caller's transaction
	 * ends: two pages choosing among the same boosts queue here, so each sees the other's
	 * count. Who was served is read without a lock, after the boosts' rows are held.
	 */
	List<BoostPicks.Standing> lockRunning(long viewerId, Collection<Long> userIds, Instant now) {
		List<BoostPicks.Standing> running = this.jdbc.sql("""
				SELECT boost_id, user_id, views FROM boosts
				WHERE user_id IN (:userIds) AND started_at <= FROM_UNIXTIME(:now) AND expires_at > FROM_UNIXTIME(:now)
				ORDER BY user_id
				FOR UPDATE
				""")
			.param("userIds", userIds)
			.param("now", SqlTime.epochSeconds(now))
			.query((rs, row) -> new BoostPicks.Standing(rs.getLong("boost_id"), rs.getLong("user_id"),
					rs.getLong("views"), false))
			.list();
		if (running.isEmpty()) {
			return running;
		}
		Set<Long> seen = new HashSet<>(this.jdbc
			.sql("SELECT boost_id FROM boost_views WHERE viewer_id = :viewerId AND boost_id IN (:boostIds)")
			.param("viewerId", viewerId)
			.param("boostIds", running.stream().map(BoostPicks.Standing::boostId).toList())
			.query(Long.class)
			.list());
		return running.stream()
			.map((boost) -> new BoostPicks.Standing(boost.boostId(), boost.userId(), boost.views(),
					seen.contains(boost.boostId())))
			.toList();
	}

	/**
	 * Counts the viewer as a view of the boost, once per viewer and boost, in the
	 * caller's transaction (which holds the boost's row, see {@link #lockRunning}).
	 */
	void addView(long boostId, long viewerId, Instant now) {
		// the viewer's own other page may have counted it just now: the primary key
		// (boost_id, viewer_id) refuses the row, which IGNORE turns into 0 rows
		int added = this.jdbc.sql("""
				INSERT IGNORE INTO boost_views (boost_id, viewer_id, served_at)
				VALUES (:boostId, :viewerId, FROM_UNIXTIME(:now))
				""")
			.param("boostId", boostId)
			.param("viewerId", viewerId)
			.param("now", SqlTime.epochSeconds(now))
			.update();
		if (added > 0) {
			this.jdbc.sql("UPDATE boosts SET views = views + 1 WHERE boost_id = :boostId")
				.param("boostId", boostId)
				.update();
		}
	}

	/**
	 * Takes up to {@code limit} expired boosts whose views are not recorded yet, marks
	 * them recorded and drops their viewers, in the caller's transaction; rows another
	 * instance is taking are skipped.
	 */
	List<Boost> takeExpiredUnrecorded(Instant now, int limit) {
		List<Boost> expired = this.jdbc.sql("""
				SELECT boost_id, started_at, expires_at, views FROM boosts
				WHERE views_recorded_at IS NULL AND expires_at <= FROM_UNIXTIME(:now)
				ORDER BY views_recorded_at, expires_at
				LIMIT :limit
				FOR UPDATE SKIP LOCKED
				""").param("now", SqlTime.epochSeconds(now)).param("limit", limit).query(BoostStore::boost).list();
		if (!expired.isEmpty()) {
			List<Long> ids = expired.stream().map(Boost::boostId).toList();
			this.jdbc.sql("UPDATE boosts SET views_recorded_at = FROM_UNIXTIME(:now) WHERE boost_id IN (:ids)")
				.param("now", SqlTime.epochSeconds(now))
				.param("ids", ids)
				.update();
			this.jdbc.sql("DELETE FROM boost_views WHERE boost_id IN (:ids)").param("ids", ids).update();
		}
		return expired;
	}

	private static Boost boost(java.sql.ResultSet rs, int row) throws java.sql.SQLException {
		return new Boost(rs.getLong("boost_id"), rs.getTimestamp("started_at").toInstant(),
				rs.getTimestamp("expires_at").toInstant(), rs.getLong("views"));
	}

	record Boost(long boostId, Instant startedAt, Instant expiresAt, long views) {

	}

	record CellBoost(long userId, Instant expiresAt) {

	}

}
