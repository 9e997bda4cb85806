package io.kindling.matching.chat;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import io.kindling.matching.chat.ChatRooms.Place;
import io.kindling.matching.room.RoomBackfilled;
import io.kindling.matching.room.RoomLeft;
import io.kindling.matching.session.Session;
import io.kindling.outbox.SqlTime;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.event.EventListener;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * What the rest of the service tells a room's conversation: someone left the room, or was
 * reported from it.
 */
@Component
public class RoomChat {

	/** The most of a reported member's messages a report keeps. */
	static final int EVIDENCE = 50;

	private static final Logger log = LoggerFactory.getLogger(RoomChat.class);

	private final ChatRooms rooms;

	private final ChatStore store;

	private final ChatProperties properties;

	private final JdbcClient jdbc;

	RoomChat(ChatRooms rooms, ChatStore store, ChatProperties properties, JdbcClient jdbc) {
		this.rooms = rooms;
		this.store = store;
		this.properties = properties;
		this.jdbc = jdbc;
	}

	/**
	 * The room claims' leave, between the seat's end and the claim's: a failure here
	 * fails the leave, which is done whole again when retried.
	 */
	@EventListener
	void on(RoomLeft left) {
		left(Session.keyOf(left.token()), left.roomId(), left.at());
	}

	/**
	 * A newcomer seated in the seat someone left (its seat and participant row
	 * committed): {@code joined} to the room, on every instance holding one of its
	 * sockets. It may come again when the newcomer's claim is restored from MySQL (the
	 * process that seated it may have died before telling); only the first adds
	 * {@code joined}, as the script adds it for a member not in yet only. Best effort,
	 * MySQL's lookup of its alias included: the newcomer is in the room either way, and
	 * any socket's welcome names it.
	 */
	@EventListener
	void on(RoomBackfilled seated) {
		try {
			Optional<Place> place = this.rooms.place(seated.roomId(), Session.keyOf(seated.token()));
			if (place.isEmpty() || place.get().liveUntil() == null) {
				return;
			}
			this.store.join(place.get().conversationId(), place.get().alias(), seated.at(),
					place.get().liveUntil().toInstant().plus(this.properties.grace()));
		}
		catch (DataAccessException ex) {
			log.warn("Could not tell room {} its newcomer", seated.roomId(), ex);
		}
	}

	/**
	 * The session left the room (its seat ended in MySQL already): {@code left} to the
	 * room, which closes the leaver's sockets and tells the others, and the last leave
	 * ends the conversation, whose messages then stay for the grace only. Nothing to do
	 * for a room not written yet. Done again, it changes nothing more.
	 */
	public void left(String sessionKey, String roomId, Instant now) {
		Optional<Place> place = this.rooms.place(roomId, sessionKey);
		if (place.isEmpty()) {
			return;
		}
		long conversationId = place.get().conversationId();
		Instant seatsEnd = (place.get().liveUntil() != null) ? place.get().liveUntil().toInstant() : now;
		this.store.leave(conversationId, place.get().alias(), now, seatsEnd.plus(this.properties.grace()));
		if (this.rooms.endIfEmpty(roomId, now)) {
			this.store.expireAt(conversationId, now.plus(this.properties.grace()));
		}
	}

	/**
	 * Keeps a reported member's last messages in the room (up to 50) with the report, in
	 * the caller's transaction: the first report of them from this room copies them from
	 * Redis, which forgets the room after its grace; later reports find them kept.
	 */
	public void keepEvidence(long conversationId, String reportedKey) {
		boolean kept = this.jdbc.sql("""
				SELECT EXISTS (SELECT 1 FROM room_report_messages
				               WHERE conversation_id = :conversationId AND reported_key = :reported)
				""")
			.param("conversationId", conversationId)
			.param("reported", reportedKey)
			.query(Boolean.class)
			.single();
		Optional<String> alias = this.rooms.alias(conversationId, reportedKey);
		if (kept || alias.isEmpty()) {
			return;
		}
		List<ChatEntry> messages = this.store.lastMessagesOf(conversationId, alias.get(), EVIDENCE);
		for (ChatEntry message : messages) {
			this.jdbc.sql("""
					INSERT IGNORE INTO room_report_messages
					  (conversation_id, reported_key, entry_id, sender, text, sent_at)
					VALUES (:conversationId, :reported, :entryId, :sender, :text, FROM_UNIXTIME(:sentAt))
					""")
				.param("conversationId", conversationId)
				.param("reported", reportedKey)
				.param("entryId", message.id().toString())
				.param("sender", message.member())
				.param("text", message.text())
				.param("sentAt", SqlTime.epochSeconds(message.at()))
				.update();
		}
	}

}
