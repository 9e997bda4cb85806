package io.kindling.consumer;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.jspecify.annotations.Nullable;
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
		JsonNode event = EventFields.read(value, json);
		UUID eventId = EventFields.uuid(event, "event_id");
		String eventType = EventFields.text(event, "event_type");
		Instant occurredAt = EventFields.instant(event, "occurred_at");
		if (!eventType.equals(MATCH_CREATED) && !eventType.equals(MATCH_REMOVED)) {
			return new MatchEvent(eventId, eventType, 0, List.of(), occurredAt, null);
		}
		JsonNode users = event.get("user_ids");
		if (users == null || !users.isArray() || users.size() != 2 || !users.get(0).isIntegralNumber()
				|| !users.get(1).isIntegralNumber()) {
			throw new MalformedEvent("user_ids is not a pair of user ids");
		}
		Long removedBy = eventType.equals(MATCH_REMOVED) ? EventFields.number(event, "removed_by") : null;
		return new MatchEvent(eventId, eventType, EventFields.number(event, "match_id"),
				List.of(users.get(0).asLong(), users.get(1).asLong()), occurredAt, removedBy);
	}

	/** The other person of the match. */
	long other(long userId) {
		return (this.userIds.get(0) == userId) ? this.userIds.get(1) : this.userIds.get(0);
	}

}
