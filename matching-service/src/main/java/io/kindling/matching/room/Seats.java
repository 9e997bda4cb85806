package io.kindling.matching.room;

import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.kindling.matching.session.Session;
import io.kindling.outbox.SqlTime;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The {@code seats} table: which live room each participant sits in. Seating is a
 * row-locked compare-and-set inside the conversation's transaction, never a read and then
 * a write, so two rooms racing for one participant cannot both have it.
 */
@Repository
class Seats {

	private final JdbcClient jdbc;

	Seats(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * Seats the participants in the room, inside the caller's transaction; throws
	 * {@link SeatsTaken} when some already sit in another live room (the caller's
	 * transaction then rolls back). A participant who left this room before it was
	 * written stays out.
	 * @param keys the participants' keys, in one order for every caller (rows are locked
	 * in it)
	 */
	void seat(String roomId, List<String> keys, Instant now, Instant liveUntil) {
		// a row whose room ended or was left is taken over; in READ COMMITTED this locks
		// only the rows it changes, and a row another transaction is seating is waited
		// for and then seen live
		int moved = this.jdbc.sql("""
				UPDATE seats SET room_id = :roomId, live_until = FROM_UNIXTIME(:liveUntil), left_at = NULL
				WHERE participant_key IN (:keys) AND room_id <> :roomId
				  AND (left_at IS NOT NULL OR live_until <= FROM_UNIXTIME(:now))
				""")
			.param("roomId", roomId)
			.param("liveUntil", SqlTime.epochSeconds(liveUntil))
			.param("now", SqlTime.epochSeconds(now))
			.param("keys", keys)
			.update();
		if (moved == keys.size()) {
			// everyone had sat somewhere before: no first seats to insert
			return;
		}
		// first seats: the primary key refuses a second row for the same participant
		StringBuilder values = new StringBuilder();
		Map<String, Object> params = new HashMap<>();
		params.put("roomId", roomId);
		params.put("liveUntil", SqlTime.epochSeconds(liveUntil));
		for (int i = 0; i < keys.size(); i++) {
			values.append((i > 0) ? ", " : "")
				.append("(:key")
				.append(i)
				.append(", :roomId, FROM_UNIXTIME(:liveUntil))");
			params.put("key" + i, keys.get(i));
		}
		int inserted = this.jdbc.sql("INSERT IGNORE INTO seats (participant_key, room_id, live_until) VALUES " + values)
			.params(params)
			.update();
		if (moved + inserted == keys.size()) {
			return;
		}
		Map<String, LiveRoom> taken = live(roomId, keys, now);
		if (!taken.isEmpty()) {
			throw new SeatsTaken(taken);
		}
	}

	/** The live room this participant sits in, if any. */
	Optional<LiveRoom> liveRoom(String token, Instant now) {
		return Optional.ofNullable(live("", List.of(Session.keyOf(token)), now).get(Session.keyOf(token)));
	}

	/** The live rooms, other than this one, of these participants. */
	private Map<String, LiveRoom> live(String roomId, Collection<String> keys, Instant now) {
		Map<String, LiveRoom> live = new HashMap<>();
		this.jdbc.sql("""
				SELECT s.participant_key, c.room_id, c.id, c.room_type, c.topic_id, c.formed_at, s.live_until,
				       c.topic_fallback, c.backfilled_key <=> s.participant_key AS newcomer, c.backfilled_at
				FROM seats s JOIN conversations c ON c.room_id = s.room_id
				WHERE s.participant_key IN (:keys) AND s.room_id <> :roomId
				  AND s.left_at IS NULL AND s.live_until > FROM_UNIXTIME(:now)
				""").param("keys", keys).param("roomId", roomId).param("now", SqlTime.epochSeconds(now)).query((rs) -> {
			// the newcomer of a backfilled room was seated when the room was backfilled
			boolean newcomer = rs.getBoolean(9);
			Instant matchedAt = (newcomer ? rs.getTimestamp(10) : rs.getTimestamp(6)).toInstant();
			live.put(rs.getString(1), new LiveRoom(rs.getString(2), rs.getLong(3), rs.getInt(4), rs.getLong(5),
					matchedAt, rs.getTimestamp(7).toInstant(), rs.getBoolean(8), newcomer));
		});
		return live;
	}

	/**
	 * Ends the participant's seat in whatever room MySQL seats it in: a leave from a
	 * queue, whose claim a failover may have taken back from the room to the wait. By
	 * primary key, so a room being written with this participant is waited for, then
	 * left.
	 */
	void leaveAnyRoom(String token, Instant now) {
		this.jdbc.sql("UPDATE seats SET left_at = FROM_UNIXTIME(:now) WHERE participant_key = :key AND left_at IS NULL")
			.param("key", Session.keyOf(token))
			.param("now", SqlTime.epochSeconds(now))
			.update();
	}

	/**
	 * Ends the participant's seat in this room, whether or not the room is written yet: a
	 * room written after the leave does not seat this participant.
	 */
	void leave(String token, String roomId, Instant now) {
		this.jdbc.sql("""
				INSERT INTO seats (participant_key, room_id, live_until, left_at)
				VALUES (:key, :roomId, FROM_UNIXTIME(:now), FROM_UNIXTIME(:now))
				ON DUPLICATE KEY UPDATE
				  live_until = IF(room_id = :roomId, live_until, FROM_UNIXTIME(:now)),
				  left_at = IF(room_id = :roomId, COALESCE(left_at, FROM_UNIXTIME(:now)), FROM_UNIXTIME(:now)),
				  room_id = :roomId
				""")
			.param("key", Session.keyOf(token))
			.param("roomId", roomId)
			.param("now", SqlTime.epochSeconds(now))
			.update();
	}

	/** How many sit in the room now: seated in it, not left, not run out. */
	int seated(String roomId, Instant now) {
		return this.jdbc.sql("""
				SELECT COUNT(*) FROM seats
				WHERE room_id = :roomId AND left_at IS NULL AND live_until > FROM_UNIXTIME(:now)
				""").param("roomId", roomId).param("now", SqlTime.epochSeconds(now)).query(Integer.class).single();
	}

}
