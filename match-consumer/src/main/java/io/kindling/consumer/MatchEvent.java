package io.kindling.consumer;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.UUID;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The fields of a {@code kindling.matches} record's value that this consumer uses; the
 * value carries more, which it ignores.
 *
 * @param eventId what repeats of the event share
 * @param eventType {@code MATCH_CREATED}, {@code MATCH_REMOVED}, or a type added later
 * @param matchId the match; absent (0) for a type this consumer does not know
 * @param userIds the two people, lower id first; empty for a type it does not know
 * @param occurredAt when it happened
 * @param removedBy who ended the match ({@code MATCH_REMOVED} only)
 */
record MatchEvent(UUID eventId, String eventType, long matchId, List<Long> userIds, Instant occurredAt,
		@Nullable Long removedBy) {

	static final String MATCH_CREATED = "MATCH_CREATED";

	static final String MATCH_REMOVED = "MATCH_REMOVED";

	/**
	 * Reads a record's value; a value that cannot be read is a {@link MalformedEvent}.
	 */
	static MatchEvent parse(@Nullable String value, JsonMapper json) {
		if (value == null) {
			throw new MalformedEvent("a record without a value");
		}
		JsonNode event;
		try {
			event = json.readTree(value);
		}
		catch (JacksonException ex) {
			throw new MalformedEvent("a value that is not JSON", ex);
		}
		UUID eventId = uuid(event, "event_id");
		String eventType = text(event, "event_type");
		Instant occurredAt = instant(event, "occurred_at");
		if (!eventType.equals(MATCH_CREATED) && !eventType.equals(MATCH_REMOVED)) {
			return new MatchEvent(eventId, eventType, 0, List.of(), occurredAt, null);
		}
		JsonNode users = event.get("user_ids");
		if (users == null || !users.isArray() || users.size() != 2 || !users.get(0).isIntegralNumber()
				|| !users.get(1).isIntegralNumber()) {
			throw new MalformedEvent("user_ids is not a pair of user ids");
		}
		Long removedBy = eventType.equals(MATCH_REMOVED) ? number(event, "removed_by") : null;
		return new MatchEvent(eventId, eventType, number(event, "match_id"),
				List.of(users.get(0).asLong(), users.get(1).asLong()), occurredAt, removedBy);
	}

	/** The other person of the match. */
	long other(long userId) {
		return (this.userIds.get(0) == userId) ? this.userIds.get(1) : this.userIds.get(0);
	}

	private static String text(JsonNode event, String field) {
		JsonNode node = event.get(field);
		if (node == null || !node.isString()) {
			throw new MalformedEvent(field + " is missing or not a string");
		}
		return node.asString();
	}

	private static long number(JsonNode event, String field) {
		JsonNode node = event.get(field);
		if (node == null || !node.isIntegralNumber()) {
			throw new MalformedEvent(field + " is missing or not a whole number");
		}
		return node.asLong();
	}

	private static UUID uuid(JsonNode event, String field) {
		try {
			return UUID.fromString(text(event, field));
		}
		catch (IllegalArgumentException ex) {
			throw new MalformedEvent(field + " is not a UUID", ex);
		}
	}

	private static Instant instant(JsonNode event, String field) {
		try {
			return Instant.parse(text(event, field));
		}
		catch (DateTimeParseException ex) {
			throw new MalformedEvent(field + " is not an ISO-8601 time", ex);
		}
	}

}
