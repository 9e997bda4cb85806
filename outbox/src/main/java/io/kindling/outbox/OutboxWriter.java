package io.kindling.outbox;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import java.util.zip.CRC32;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Appends events to one outbox table inside the caller's transaction, so an event exists
 * exactly when the fact it reports was committed. The table's shape is
 * {@code classpath:db/outbox/outbox-table.sql}.
 */
public final class OutboxWriter {

	private static final Pattern TABLE_NAME = Pattern.compile("[a-z][a-z0-9_]{0,63}");

	private final JdbcClient jdbc;

	private final String insert;

	private final String table;

	private final OutboxWakeUp wakeUp;

	public OutboxWriter(JdbcClient jdbc, String table) {
		this(jdbc, table, OutboxWakeUp.none());
	}

	/**
	 * A writer that also wakes the relays after each commit that wrote rows, so events
	 * reach Kafka without waiting for the relays' next poll.
	 */
	public OutboxWriter(JdbcClient jdbc, String table, OutboxWakeUp wakeUp) {
		if (!TABLE_NAME.matcher(table).matches()) {
			throw new IllegalArgumentException("not an outbox table name: " + table);
		}
		this.jdbc = jdbc;
		this.table = table;
		this.wakeUp = wakeUp;
		this.insert = """
				INSERT INTO %s (event_id, event_type, event_key, key_hash, payload, created_at)
				VALUES (:eventId, :eventType, :eventKey, :keyHash, :payload, FROM_UNIXTIME(:createdAt))
				""".formatted(table);
	}

	/**
	 * Writes the event; fails when no transaction is active, since the row would commit
	 * on its own.
	 */
	public void append(OutboxEvent event) {
		if (!TransactionSynchronizationManager.isActualTransactionActive()) {
			throw new IllegalStateException("an outbox row must be written in the transaction of its fact");
		}
		this.jdbc.sql(this.insert)
			.param("eventId", event.eventId().toString())
			.param("eventType", event.eventType())
			.param("eventKey", event.eventKey())
			.param("keyHash", keyHash(event.eventKey()))
			.param("payload", event.payload())
			.param("createdAt", SqlTime.epochSeconds(event.occurredAt()))
			.update();
		this.wakeUp.ringAfterCommit(this.table);
	}

	/**
	 * A stable hash of the event key: relays divide keys among themselves by it, keeping
	 * per-key order.
	 */
	public static long keyHash(String eventKey) {
		CRC32 crc = new CRC32();
		crc.update(eventKey.getBytes(StandardCharsets.UTF_8));
		return crc.getValue();
	}

}
