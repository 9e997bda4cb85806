package io.kindling.consumer;

import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The event ids that took effect, recorded in the transaction of their effect. */
@Repository
class ProcessedEvents {

	private final JdbcClient jdbc;

	ProcessedEvents(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * Records the event id; false when it is there already: a repeat, whose effect is
	 * committed. A second consumer processing the same event at the same moment waits
	 * here on the first one's row lock, and finds it once that one commits.
	 */
	boolean firstTime(UUID eventId) {
		// the id is a parsed UUID, so IGNORE can only skip the duplicate key
		return this.jdbc.sql("INSERT IGNORE INTO processed_events (event_id) VALUES (:eventId)")
			.param("eventId", eventId.toString())
			.update() == 1;
	}

}
