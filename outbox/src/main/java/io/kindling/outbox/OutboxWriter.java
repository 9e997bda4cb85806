package io.kindling.outbox;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Appends events to one outbox table inside the caller's transaction, so an event exists
 * exactly when the fact it reports was committed. Appending is idempotent by event id: an
 * event derived from its fact (a match's {@code MATCH_CREATED}) may be appended by every
 * writer that reaches the fact, and the table holds it once. Each row also stores the W3C
 * {@code traceparent} of the trace active when it was appended (the request that caused
 * it), which the relay sends as a record header. The table is made by
 * {@link OutboxSchema}.
 */
public final class OutboxWriter {

	private final JdbcClient jdbc;

	private final String insert;

	private final String table;

	private final OutboxWakeUp wakeUp;

	private final TraceParentSource trace;

	public OutboxWriter(JdbcClient jdbc, String table) {
		this(jdbc, table, OutboxWakeUp.none());
	}

	/**
	 * A writer that also wakes the relays after each commit that wrote rows, so events
	 * reach Kafka without waiting for the relays' next poll.
	 */
	public OutboxWriter(JdbcClient jdbc, String table, OutboxWakeUp wakeUp) {
		this(jdbc, table, wakeUp, TraceParentSource.none());
	}

	/**
	 * A writer that wakes the relays and stores on each row the trace context that
	 * {@code trace} finds current when the event is appended.
	 */
	public OutboxWriter(JdbcClient jdbc, String table, OutboxWakeUp wakeUp, TraceParentSource trace) {
		TableName.require(table);
		this.jdbc = jdbc;
		this.table = table;
		this.wakeUp = wakeUp;
		this.trace = trace;
		this.insert = "INSERT INTO %s (event_id, event_type, event_key, key_hash, payload, created_at, traceparent) VALUES "
			.formatted(table);
	}

	/**
	 * A writer of another outbox table of the same database, ringing the same relays and
	 * storing the same trace context as this one.
	 */
	public OutboxWriter to(OutboxTable other) {
		return new OutboxWriter(this.jdbc, other.name(), this.wakeUp, this.trace);
	}

	/**
	 * Writes the event unless the table holds its id already (the row there, published or
	 * not, is left as it is, its trace context too); fails when no transaction is active,
	 * since the row would commit on its own.
	 */
	public void append(OutboxEvent event) {
		appendAll(List.of(event));
	}

	/**
	 * {@link #append} for several events, in one statement: a writer that stores many
	 * facts in one transaction pays one round trip for their rows. Each row carries the
	 * trace context current now.
	 */
	public void appendAll(List<OutboxEvent> events) {
		String now = this.trace.current();
		appendTraced(events.stream().map((event) -> new Traced(event, now)).toList());
	}

	/**
	 * {@link #appendAll} for events each caused by its own request, appended on a thread
	 * that is none of theirs (a group commit's writer, say): each row carries the trace
	 * context its request's thread read with {@link #currentTrace}.
	 */
	public void appendTraced(List<Traced> events) {
		if (!TransactionSynchronizationManager.isActualTransactionActive()) {
			throw new IllegalStateException("an outbox row must be written in the transaction of its fact");
		}
		if (events.isEmpty()) {
			return;
		}
		StringBuilder sql = new StringBuilder(this.insert);
		List<@Nullable Object> params = new ArrayList<>(events.size() * 7);
		for (Traced traced : events) {
			OutboxEvent event = traced.event();
			sql.append((params.isEmpty()) ? "" : ", ").append("(?, ?, ?, ?, ?, FROM_UNIXTIME(?), ?)");
			params.addAll(Arrays.asList(event.eventId().toString(), event.eventType(), event.eventKey(),
					keyHash(event.eventKey()), event.payload(), SqlTime.epochSeconds(event.occurredAt()),
					traced.traceparent()));
		}
		this.jdbc.sql(sql.append(" ON DUPLICATE KEY UPDATE event_id = event_id").toString()).params(params).update();
		this.wakeUp.ringAfterCommit(this.table);
	}

	/**
	 * The trace context a row appended on this thread now would carry: read it on the
	 * request's thread for {@link #appendTraced} on another.
	 */
	public @Nullable String currentTrace() {
		return this.trace.current();
	}

	/**
	 * An event with the trace context of the request that caused it.
	 *
	 * @param traceparent null when no trace was active
	 */
	public record Traced(OutboxEvent event, @Nullable String traceparent) {

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
