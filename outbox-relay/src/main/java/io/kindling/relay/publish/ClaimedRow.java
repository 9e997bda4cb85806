package io.kindling.relay.publish;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * An unpublished outbox row, locked by the claim transaction; its payload as the UTF-8
 * bytes of the stored JSON, and the W3C trace context of the request that wrote it, if
 * any.
 */
record ClaimedRow(long id, String eventId, String eventType, String eventKey, byte[] payload, Instant createdAt,
		int attempts, @Nullable Instant nextAttemptAt, @Nullable String traceparent) {

	boolean dueAt(Instant now) {
		return this.nextAttemptAt == null || !this.nextAttemptAt.isAfter(now);
	}

}
