package io.kindling.consumer;

import java.time.Instant;
import java.util.UUID;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A {@code kindling.messages} record's value: who wrote to whom in which match, and when.
 * The text is never in it; a notification says "Ben sent you a message", and the app
 * reads the message itself from swipe-service when the person opens it.
 *
 * @param eventId what repeats of the event share
 * @param eventType {@code MESSAGE_SENT}, or a type added later
 * @param matchId the match; absent (0) for a type this consumer does not know
 * @param sentAt when the message was sent; for a type it does not know, the epoch
 */
record MessageEvent(UUID eventId, String eventType, long matchId, long messageId, long fromUserId, long toUserId,
		Instant sentAt) {

	static final String MESSAGE_SENT = "MESSAGE_SENT";

	/**
	 * Reads a record's value; a value that cannot be read is a {@link MalformedEvent}.
	 */
	static MessageEvent parse(@Nullable String value, JsonMapper json) {
		JsonNode event = EventFields.read(value, json);
		UUID eventId = EventFields.uuid(event, "event_id");
		String eventType = EventFields.text(event, "event_type");
		if (!eventType.equals(MESSAGE_SENT)) {
			return new MessageEvent(eventId, eventType, 0, 0, 0, 0, Instant.EPOCH);
		}
		return new MessageEvent(eventId, eventType, EventFields.number(event, "match_id"),
				EventFields.number(event, "message_id"), EventFields.number(event, "from_user_id"),
				EventFields.number(event, "to_user_id"), EventFields.instant(event, "sent_at"));
	}

}
