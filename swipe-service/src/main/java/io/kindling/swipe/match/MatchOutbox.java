package io.kindling.swipe.match;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.kindling.outbox.OutboxWakeUp;
import io.kindling.outbox.OutboxWriter;
import io.kindling.outbox.SqlTime;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Rows of {@code match_outbox}. Not {@link OutboxWriter#append}: the
 * {@code MATCH_CREATED} insert is idempotent ({@code ON DUPLICATE KEY UPDATE}), and the
 * event id is derived from the match, so a second writer of the same match (a retry, the
 * reconciler, the other side of the pair) adds nothing, and consumers that de-duplicate
 * on {@code event_id} see one event even if a late duplicate slipped past the retention.
 */
@Component
class MatchOutbox {

	static final String MATCH_CREATED = "MATCH_CREATED";

	static final String MATCH_REMOVED = "MATCH_REMOVED";

	private final JdbcClient jdbc;

	private final JsonMapper json;

	private final OutboxWakeUp wakeUp;

	MatchOutbox(JdbcClient jdbc, JsonMapper json, OutboxWakeUpProperties wakeUp) {
		this.jdbc = jdbc;
		this.json = json;
		this.wakeUp = OutboxWakeUp.udp(wakeUp.wakeUpAddress());
	}

	void matchCreated(MatchRef match, Instant now) {
		UUID eventId = eventId(match.matchId(), MATCH_CREATED);
		String key = eventKey(match);
		write(match.matchId(), eventId, MATCH_CREATED, key,
				this.json.writeValueAsString(new MatchCreated(eventId, MATCH_CREATED, key, match.matchId(),
						List.of(match.userId1(), match.userId2()), match.matchedAt(), now)),
				now);
	}

	void matchRemoved(MatchRef match, Instant removedAt, long removedBy) {
		UUID eventId = eventId(match.matchId(), MATCH_REMOVED);
		String key = eventKey(match);
		write(match.matchId(), eventId, MATCH_REMOVED, key,
				this.json.writeValueAsString(new MatchRemoved(eventId, MATCH_REMOVED, key, match.matchId(),
						List.of(match.userId1(), match.userId2()), match.matchedAt(), removedAt, removedBy, removedAt)),
				removedAt);
	}

	private void write(long matchId, UUID eventId, String type, String key, String payload, Instant now) {
		this.jdbc.sql("""
				INSERT INTO match_outbox (event_id, event_type, event_key, key_hash, payload, created_at, match_id)
				VALUES (:eventId, :eventType, :eventKey, :keyHash, :payload, FROM_UNIXTIME(:createdAt), :matchId)
				ON DUPLICATE KEY UPDATE event_type = event_type
				""")
			.param("eventId", eventId.toString())
			.param("eventType", type)
			.param("eventKey", key)
			.param("keyHash", OutboxWriter.keyHash(key))
			.param("payload", payload)
			.param("createdAt", SqlTime.epochSeconds(now))
			.param("matchId", matchId)
			.update();
		// The relay publishes the event right after commit instead of at its next poll.
		this.wakeUp.ringAfterCommit("match_outbox");
	}

	static String eventKey(MatchRef match) {
		return match.userId1() + ":" + match.userId2();
	}

	static UUID eventId(long matchId, String type) {
		return UUID.nameUUIDFromBytes(("kindling.matches/" + matchId + "/" + type).getBytes(StandardCharsets.UTF_8));
	}

	record MatchCreated(UUID eventId, String eventType, String eventKey, long matchId, List<Long> userIds,
			Instant matchedAt, Instant occurredAt) {

	}

	record MatchRemoved(UUID eventId, String eventType, String eventKey, long matchId, List<Long> userIds,
			Instant matchedAt, Instant removedAt, long removedBy, Instant occurredAt) {

	}

}
