package io.kindling.matching.chat;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import io.kindling.outbox.SqlTime;
import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Who may open a room's socket, as MySQL says: the room's conversation, its participants
 * (seated in the order they waited, which gives each its alias) and their seats.
 */
@Repository
class ChatRooms {

	private final JdbcClient jdbc;

	ChatRooms(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * Whether the session may talk in this room now, as whom, and who else is in it: the
	 * participants in the order they waited (their seats A, B, C), those whose seat is
	 * still this room, not left and not run out.
	 */
	Admission admit(long conversationId, String sessionKey, Instant now) {
		Optional<Conversation> conversation = this.jdbc
			.sql("SELECT room_id, ended_at IS NOT NULL AS ended FROM conversations WHERE id = :conversationId")
			.param("conversationId", conversationId)
			.query((rs, row) -> new Conversation(rs.getString("room_id"), rs.getBoolean("ended")))
			.optional();
		if (conversation.isEmpty()) {
			return new Admission.NoSuchRoom();
		}
		String roomId = conversation.get().roomId();
		List<Participant> participants = this.jdbc
			.sql("""
					SELECT p.participant_key, s.live_until,
					       COALESCE(s.room_id = :roomId AND s.left_at IS NULL AND s.live_until > FROM_UNIXTIME(:now), FALSE) AS live
					FROM conversation_participants p
					LEFT JOIN seats s ON s.participant_key = p.participant_key
					WHERE p.conversation_id = :conversationId
					ORDER BY p.waiting_since, p.participant_key
					""")
			.param("conversationId", conversationId)
			.param("roomId", roomId)
			.param("now", SqlTime.epochSeconds(now))
			.query((rs, row) -> new Participant(rs.getString("participant_key"), Alias.ofSeat(row + 1),
					rs.getBoolean("live"), rs.getTimestamp("live_until")))
			.list();
		Participant caller = participants.stream()
			.filter((participant) -> participant.key().equals(sessionKey))
			.findFirst()
			.orElse(null);
		if (caller == null) {
			return new Admission.Outside();
		}
		if (conversation.get().ended() || !caller.live() || caller.liveUntil() == null) {
			return new Admission.Ended();
		}
		return new Admission.Member(conversationId, roomId, caller.alias(), caller.liveUntil().toInstant(),
				participants.stream().filter(Participant::live).map(Participant::alias).toList());
	}

	/**
	 * The participant's place in the room's conversation, as {@link #admit} names it:
	 * empty when the room is not written (yet) or the session was not in it.
	 */
	Optional<Place> place(String roomId, String sessionKey) {
		List<Place> places = this.jdbc.sql("""
				SELECT c.id, p.participant_key, s.live_until
				FROM conversations c
				JOIN conversation_participants p ON p.conversation_id = c.id
				LEFT JOIN seats s ON s.participant_key = p.participant_key AND s.room_id = c.room_id
				WHERE c.room_id = :roomId
				ORDER BY p.waiting_since, p.participant_key
				""")
			.param("roomId", roomId)
			.query((rs, row) -> new Place(rs.getLong("id"), rs.getString("participant_key"), Alias.ofSeat(row + 1),
					rs.getTimestamp("live_until")))
			.list();
		return places.stream().filter((place) -> place.key().equals(sessionKey)).findFirst();
	}

	/**
	 * The participant's alias in a conversation (by the order they waited); empty when
	 * they were not in it.
	 */
	Optional<String> alias(long conversationId, String participantKey) {
		List<String> keys = this.jdbc.sql("""
				SELECT participant_key FROM conversation_participants
				WHERE conversation_id = :conversationId
				ORDER BY waiting_since, participant_key
				""").param("conversationId", conversationId).query(String.class).list();
		int seat = keys.indexOf(participantKey);
		return (seat < 0) ? Optional.empty() : Optional.of(Alias.ofSeat(seat + 1));
	}

	/**
	 * @param liveUntil when the participant's seat in the room runs out; null when it has
	 * no seat there any more
	 */
	record Place(long conversationId, String key, String alias, @Nullable Timestamp liveUntil) {

	}

	private record Conversation(String roomId, boolean ended) {

	}

	private record Participant(String key, String alias, boolean live, @Nullable Timestamp liveUntil) {

	}

	/**
	 * Ends the room's conversation if nobody is seated in it any more: called after a
	 * leave, so the last leave ends it.
	 * @return whether this call ended it
	 */
	boolean endIfEmpty(String roomId, Instant now) {
		return this.jdbc.sql("""
				UPDATE conversations SET ended_at = FROM_UNIXTIME(:now)
				WHERE room_id = :roomId AND ended_at IS NULL
				  AND NOT EXISTS (SELECT 1 FROM seats
				                  WHERE room_id = :roomId AND left_at IS NULL AND live_until > FROM_UNIXTIME(:now))
				""").param("roomId", roomId).param("now", SqlTime.epochSeconds(now)).update() > 0;
	}

	/** What a session may do with a room's socket. */
	sealed interface Admission {

		/**
		 * One of the room's people, seated in it now.
		 *
		 * @param present the aliases of everyone seated in it now, this one's included
		 */
		record Member(long conversationId, String roomId, String alias, Instant liveUntil,
				List<String> present) implements Admission {
		}

		/** Not one of the room's people: 403. */
		record Outside() implements Admission {
		}

		/** One of them, but the room ended, or they left it: 410. */
		record Ended() implements Admission {
		}

		/** No such conversation: 404. */
		record NoSuchRoom() implements Admission {
		}

	}

}
