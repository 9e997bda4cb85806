package io.kindling.matching.room;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalInt;
import java.util.UUID;

import io.kindling.matching.MatchingProperties;
import io.kindling.matching.queue.OpenSeat;
import io.kindling.matching.queue.QueueEntry;
import io.kindling.matching.session.Session;
import io.kindling.outbox.OutboxEvent;
import io.kindling.outbox.OutboxWriter;
import io.kindling.outbox.SqlTime;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Isolation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Seats a newcomer in a written room of three that lost someone, in one transaction: the
 * conversation marked backfilled (once, with when and the newcomer's key), the room's
 * live seats counted and locked, the newcomer's seat, its participant row and a
 * {@code ROOM_BACKFILLED} outbox row.
 */
@Repository
class BackfillWriter {

	private final JdbcClient jdbc;

	private final Seats seats;

	private final OutboxWriter outbox;

	private final JsonMapper json;

	private final Clock clock;

	private final Duration roomTtl;

	BackfillWriter(JdbcClient jdbc, Seats seats, OutboxWriter outbox, JsonMapper json, Clock clock,
			MatchingProperties properties) {
		this.jdbc = jdbc;
		this.seats = seats;
		this.outbox = outbox;
		this.json = json;
		this.clock = clock;
		this.roomTtl = properties.roomTtl();
	}

	/**
	 * Read committed, as the room's own write. The conversation's row is locked first,
	 * then the room's live seats: a last leave meanwhile either ended its seat before
	 * (counted out, and an empty room is refused) or waits, and then finds the newcomer
	 * seated and does not end the room.
	 * @throws SeatGone when the room ended, emptied or was backfilled (nothing written)
	 * @throws SeatsTaken when the newcomer already sits in another live room
	 */
	@Transactional(isolation = Isolation.READ_COMMITTED)
	public RoomLedger.Backfilled write(OpenSeat seat, QueueEntry newcomer, Instant now) {
		int marked = this.jdbc.sql("""
				UPDATE conversations SET backfilled_at = FROM_UNIXTIME(:now), backfilled_key = :newcomer
				WHERE id = :conversationId AND room_id = :roomId AND room_type = 3
				  AND backfilled_at IS NULL AND ended_at IS NULL
				""")
			.param("now", SqlTime.epochSeconds(now))
			.param("newcomer", Session.keyOf(newcomer.token()))
			.param("conversationId", seat.conversationId())
			.param("roomId", seat.roomId())
			.update();
		if (marked == 0) {
			throw new SeatGone("room " + seat.roomId() + " ended or was backfilled already");
		}
		Instant formedAt = this.jdbc.sql("SELECT formed_at FROM conversations WHERE id = :conversationId")
			.param("conversationId", seat.conversationId())
			.query((rs, row) -> rs.getTimestamp(1).toInstant())
			.single();
		List<String> seated = this.jdbc.sql("""
				SELECT participant_key FROM seats
				WHERE room_id = :roomId AND left_at IS NULL AND live_until > FROM_UNIXTIME(:now)
				FOR UPDATE
				""").param("roomId", seat.roomId()).param("now", SqlTime.epochSeconds(now)).query(String.class).list();
		if (seated.isEmpty() || seated.size() >= 3) {
			throw new SeatGone("room " + seat.roomId() + " has " + seated.size() + " seated");
		}
		Instant liveUntil = formedAt.plus(this.roomTtl);
		this.seats.seat(seat.roomId(), List.of(Session.keyOf(newcomer.token())), now, liveUntil);
		ConversationWriter.addParticipants(this.jdbc, seat.conversationId(), List.of(newcomer));
		int members = seated.size() + 1;
		Instant occurredAt = this.clock.instant();
		UUID eventId = UUID.randomUUID();
		RoomBackfilledEvent event = new RoomBackfilledEvent(eventId.toString(), "ROOM_BACKFILLED", seat.roomId(),
				seat.roomId(), seat.conversationId(), seat.queue().topicId(), 3, members, now, occurredAt);
		this.outbox.append(new OutboxEvent(eventId, "ROOM_BACKFILLED", seat.roomId(),
				this.json.writeValueAsString(event), occurredAt));
		return new RoomLedger.Backfilled(members, liveUntil);
	}

	/**
	 * How many sit in the room now, once it was backfilled: one statement, by the
	 * conversation's unique room id and the seats' index by room.
	 */
	OptionalInt seatedIfBackfilled(String roomId, Instant now) {
		return this.jdbc.sql("""
				SELECT COUNT(s.participant_key) FROM conversations c
				LEFT JOIN seats s ON s.room_id = c.room_id AND s.left_at IS NULL AND s.live_until > FROM_UNIXTIME(:now)
				WHERE c.room_id = :roomId AND c.backfilled_at IS NOT NULL
				GROUP BY c.id
				""")
			.param("roomId", roomId)
			.param("now", SqlTime.epochSeconds(now))
			.query(Integer.class)
			.optional()
			.map(OptionalInt::of)
			.orElse(OptionalInt.empty());
	}

	/**
	 * The {@code ROOM_BACKFILLED} payload consumers read; never a session token.
	 *
	 * @param members how many sit in the room now, the newcomer included
	 */
	record RoomBackfilledEvent(String eventId, String eventType, String eventKey, String roomId, long conversationId,
			long topicId, int roomType, int members, Instant backfilledAt, Instant occurredAt) {

	}

}
