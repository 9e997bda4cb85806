package io.kindling.relay.parked;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * A parked row as the API shows it; {@code id} is the event id, unique across sources.
 */
record ParkedRow(String id, String source, long rowId, String eventType, String eventKey, int attempts,
		@Nullable String lastError, Instant createdAt, Instant parkedAt) {
}
