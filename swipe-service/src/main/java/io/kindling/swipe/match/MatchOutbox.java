package io.kindling.swipe.match;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.kindling.outbox.OutboxEvent;
import io.kindling.outbox.OutboxWriter;

import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * The match events of {@code match_outbox}. Each event id is derived from the match and
 * the event's type, and {@link OutboxWriter#append} is idempotent by event id, so a
 * second writer of the same match (a retry, the reconciler, the other side of the pair)
 * adds nothing, and consumers that de-duplicate on {@code event_id} see one event even if
 * a late duplicate slipped past the retention.
 */
@Component
public class MatchOutbox {

	static final String MATCH_CREATED = "MATCH_CREATED";

	static final String MATCH_REMOVED = "MATCH_REMOVED";

	private final OutboxWriter outbox;

	private final JsonMapper json;

	MatchOutbox(OutboxWriter outbox, JsonMapper json) {
		this.outbox = outbox;
		this.json = json;
	}

	/** A match was written in the current transaction. */
	public void matchCreated(MatchRef match, Instant now) {
		UUID eventId = eventId(match.matchId(), MATCH_CREATED);
		String key = eventKey(match);
		this.outbox
			.append(new OutboxEvent(
					eventId, MATCH_CREATED, key, this.json.writeValueAsString(new MatchCreated(eventId, MATCH_CREATED,
							key, match.matchId(), List.of(match.userId1(), match.userId2()), match.matchedAt(), now)),
					now));
	}

	/** A match was ended in the current transaction. */
	public void matchRemoved(MatchRemoved removed) {
		UUID eventId = eventId(removed.matchId(), MATCH_REMOVED);
		String key = eventKey(removed.userId1(), removed.userId2());
		this.outbox.append(new OutboxEvent(eventId, MATCH_REMOVED, key,
				this.json.writeValueAsString(new MatchRemovedPayload(eventId, MATCH_REMOVED, key, removed.matchId(),
						List.of(removed.userId1(), removed.userId2()), removed.matchedAt(), removed.removedAt(),
						removed.removedBy(), removed.reason().name(), removed.removedAt())),
				removed.removedAt()));
	}

	static String eventKey(MatchRef match) {
		return eventKey(match.userId1(), match.userId2());
	}

	private static String eventKey(long userId1, long userId2) {
		return userId1 + ":" + userId2;
	}

	static UUID eventId(long matchId, String type) {
		return UUID.nameUUIDFromBytes(("kindling.matches/" + matchId + "/" + type).getBytes(StandardCharsets.UTF_8));
	}

	record MatchCreated(UUID eventId, String eventType, String eventKey, long matchId, List<Long> userIds,
			Instant matchedAt, Instant occurredAt) {

	}

	/**
	 * @param reason {@code UNMATCHED} or {@code BLOCKED}
	 */
	record MatchRemovedPayload(UUID eventId, String eventType, String eventKey, long matchId, List<Long> userIds,
			Instant matchedAt, Instant removedAt, long removedBy, String reason, Instant occurredAt) {

	}

}
