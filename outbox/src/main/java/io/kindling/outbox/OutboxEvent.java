package io.kindling.outbox;

import java.time.Instant;
import java.util.UUID;

/**
 * One event to publish: its id (consumers de-duplicate on it), its type, the key that
 * carries order (record key on Kafka) and its JSON value.
 */
public record OutboxEvent(UUID eventId, String eventType, String eventKey, String payload, Instant occurredAt) {

}
