package io.kindling.matching.room;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.kindling.matching.MatchingProperties;
import io.kindling.matching.queue.PoppedRoom;
import io.kindling.matching.queue.QueueEntry;
import io.kindling.matching.session.Session;
import io.kindling.outbox.OutboxEvent;
import io.kindling.outbox.OutboxWriter;
import io.kindling.outbox.SqlTime;
import io.kindling.support.web.Networks;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Isolation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Writes a popped room as a conversation with its participants, their seats, and its
 * {@code ROOM_FORMED} outbox row in the same transaction. MySQL is the truth for rooms:
 * the write is refused ({@link SeatsTaken}) when a participant already sits in a live
 * one.
 */
@Repository
class ConversationWriter {

	private final JdbcClient jdbc;

	private final OutboxWriter outbox;

	private final JsonMapper json;

	private final Clock clock;

	private final Seats seats;

	private final Duration roomTtl;

	ConversationWriter(JdbcClient jdbc, JsonMapper json, Clock clock, OutboxWriter outbox, Seats seats,
			MatchingProperties properties) {
		this.jdbc = jdbc;
		this.outbox = outbox;
		this.seats = seats;
		this.roomTtl = properties.roomTtl();
		this.json = json;
		this.clock = clock;
	}

	/**
	 * Read committed: the seats' locking reads then take no gap locks, which made
	 * concurrent rooms of new participants deadlock.
	 * @return the conversation id
	 * @throws SeatsTaken when a participant is already in a live room (nothing written)
	 */
	@Transactional(isolation = Isolation.READ_COMMITTED)
	public long write(PoppedRoom room) {
		List<String> participantKeys = room.tokens().stream().map(Session::keyOf).sorted().toList();
		this.seats.seat(room.roomId(), participantKeys, room.formedAt(), room.formedAt().plus(this.roomTtl));
		KeyHolder keys = new GeneratedKeyHolder();
		this.jdbc.sql("""
				INSERT INTO conversations (room_id, topic_id, size, room_type, fallback, topic_fallback, formed_at)
				VALUES (:roomId, :topicId, :size, :roomType, :fallback, :topicFallback, FROM_UNIXTIME(:formedAt))
				""")
			.param("roomId", room.roomId())
			.param("topicId", room.topicId())
			.param("size", room.queue().size())
			.param("roomType", room.roomType())
			.param("fallback", room.fallback())
			.param("topicFallback", room.topicFallback())
			.param("formedAt", SqlTime.epochSeconds(room.formedAt()))
			.update(keys, "id");
		long conversationId = keys.getKeyAs(Number.class).longValue();
		// all participants in one statement: a room is written on the join that completes
		// it, so each round trip here is on that caller's time
		addParticipants(this.jdbc, conversationId, room.participants());
		Instant occurredAt = this.clock.instant();
		UUID eventId = UUID.randomUUID();
		RoomFormedEvent event = new RoomFormedEvent(eventId.toString(), "ROOM_FORMED", room.roomId(), room.roomId(),
				conversationId, room.topicId(), room.roomType(), room.formedAt(), occurredAt);
		this.outbox.append(new OutboxEvent(eventId, "ROOM_FORMED", room.roomId(), this.json.writeValueAsString(event),
				occurredAt));
		return conversationId;
	}

	/** The {@code ROOM_FORMED} payload consumers read; never a session token. */
	record RoomFormedEvent(String eventId, String eventType, String eventKey, String roomId, long conversationId,
			long topicId, int roomType, Instant formedAt, Instant occurredAt) {

	}

	/**
	 * The participants' rows of a conversation, in one statement: each session by its key
	 * (never its token), when it began waiting, and the network it joined from (enough to
	 * ban it when reports ban the session).
	 */
	static void addParticipants(JdbcClient jdbc, long conversationId, List<QueueEntry> participants) {
		StringBuilder values = new StringBuilder();
		Map<String, Object> params = new HashMap<>();
		params.put("conversationId", conversationId);
		for (int i = 0; i < participants.size(); i++) {
			values.append((i > 0) ? ", " : "")
				.append("(:conversationId, :participantKey")
				.append(i)
				.append(", FROM_UNIXTIME(:waitingSince")
				.append(i)
				.append("), :network")
				.append(i)
				.append(")");
			QueueEntry participant = participants.get(i);
			params.put("participantKey" + i, Session.keyOf(participant.token()));
			params.put("waitingSince" + i, SqlTime.epochSeconds(participant.since()));
			params.put("network" + i, participant.address().isEmpty() ? null : Networks.of(participant.address()));
		}
		jdbc.sql("""
				INSERT INTO conversation_participants (conversation_id, participant_key, waiting_since, network)
				VALUES """ + values).params(params).update();
	}

}
