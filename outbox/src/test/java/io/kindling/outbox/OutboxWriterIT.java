package io.kindling.outbox;

import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32;

import brave.Tracing;
import brave.sampler.Sampler;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.brave.bridge.BraveCurrentTraceContext;
import io.micrometer.tracing.brave.bridge.BraveTracer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.dao.PessimisticLockingFailureException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/** {@link OutboxWriter} on the real MariaDB, in a table its migrations made. */
@RealServers(Server.MARIADB)
class OutboxWriterIT {

	static final String TABLE = "writer_outbox";

	static TestDatabase db;

	static OutboxWriter writer;

	@BeforeAll
	static void createTable() {
		db = new TestDatabase("outbox_writer_it");
		OutboxSchema.migrate(db.dataSource, TABLE);
		writer = new OutboxWriter(db.jdbc, TABLE);
	}

	@AfterAll
	static void close() {
		db.close();
	}

	@BeforeEach
	void empty() {
		db.jdbc.sql("DELETE FROM " + TABLE).update();
	}

	@Test
	void anAppendedEventIsOneRowWaitingForTheRelay() {
		OutboxEvent event = event("12:34", "{\"match_id\":9}", Instant.parse("2026-12-02T10:00:00.123456Z"));
		db.transactions.executeWithoutResult((status) -> writer.append(event));

		List<Map<String, Object>> rows = db.rows(TABLE);
		assertThat(rows).hasSize(1);
		Map<String, Object> row = rows.get(0);
		assertThat(row).containsEntry("event_id", event.eventId().toString())
			.containsEntry("event_type", "MATCH_CREATED")
			.containsEntry("event_key", "12:34")
			.containsEntry("key_hash", crc32("12:34"))
			.containsEntry("payload", "{\"match_id\":9}")
			.containsEntry("attempts", 0)
			.containsEntry("published_at", null)
			.containsEntry("next_attempt_at", null)
			.containsEntry("last_error", null)
			.containsEntry("parked_at", null)
			// no trace was active
			.containsEntry("traceparent", null);
		// to the microsecond, on MariaDB too
		assertThat(((Timestamp) row.get("created_at")).toInstant()).isEqualTo(event.occurredAt());
	}

	@Test
	void anEventIdIsAppendedOnceWhateverComesAfterIt() {
		OutboxEvent first = event("12:34", "{\"first\":true}", Instant.now());
		OutboxEvent again = new OutboxEvent(first.eventId(), "MATCH_REMOVED", "56:78", "{\"first\":false}",
				Instant.now().plusSeconds(60));
		db.transactions.executeWithoutResult((status) -> writer.append(first));
		db.transactions.executeWithoutResult((status) -> writer.append(again));
		// twice in one transaction too
		db.transactions.executeWithoutResult((status) -> {
			writer.append(again);
			writer.append(again);
		});
		assertThat(db.rows(TABLE)).singleElement()
			.satisfies((row) -> assertThat(row).containsEntry("event_id", first.eventId().toString())
				.containsEntry("event_type", "MATCH_CREATED")
				.containsEntry("event_key", "12:34")
				.containsEntry("payload", "{\"first\":true}"));

		// a published row stays published: the relay does not send it again
		db.jdbc.sql("UPDATE " + TABLE + " SET published_at = NOW(6)").update();
		db.transactions.executeWithoutResult((status) -> writer.append(first));
		assertThat(db.count(TABLE)).isOne();
		assertThat(db.rows(TABLE).get(0).get("published_at")).isNotNull();
	}

	@Test
	void manyWritersOfTheSameEventsLeaveEachOnce() throws Exception {
		List<OutboxEvent> events = new ArrayList<>();
		for (int i = 0; i < 50; i++) {
			events.add(event("pair-" + i, "{\"i\":" + i + "}", Instant.now()));
		}
		AtomicInteger deadlocks = new AtomicInteger();
		try (ExecutorService threads = Executors.newFixedThreadPool(16)) {
			List<Future<?>> done = new ArrayList<>();
			for (int t = 0; t < 16; t++) {
				done.add(threads.submit(() -> {
					for (OutboxEvent event : events) {
						appendRetryingDeadlocks(event, deadlocks);
					}
				}));
			}
			for (Future<?> each : done) {
				each.get();
			}
		}
		assertThat(db.rows(TABLE)).extracting((row) -> row.get("event_id"))
			.containsExactlyInAnyOrderElementsOf(events.stream().map((event) -> event.eventId().toString()).toList());
		System.out.printf("16 writers x 50 events: %d deadlocks retried%n", deadlocks.get());
	}

	@Test
	void aRolledBackTransactionTakesItsEventsWithIt() {
		db.transactions.executeWithoutResult((status) -> {
			writer.append(event("a", "{}", Instant.now()));
			writer.append(event("b", "{}", Instant.now()));
			// the caller's transaction sees its rows before it decides
			assertThat(db.count(TABLE)).isEqualTo(2);
			status.setRollbackOnly();
		});
		assertThat(db.count(TABLE)).isZero();
	}

	@Test
	void anEventAppendedWhileATraceIsActiveStoresItsTraceparentAndOneAppendedOutsideNone() {
		try (Tracing tracing = Tracing.newBuilder().traceId128Bit(true).sampler(Sampler.ALWAYS_SAMPLE).build()) {
			Tracer tracer = new BraveTracer(tracing.tracer(),
					new BraveCurrentTraceContext(tracing.currentTraceContext()));
			OutboxWriter traced = new OutboxWriter(db.jdbc, TABLE, OutboxWakeUp.none(),
					new MicrometerTraceParentSource(tracer));
			OutboxEvent inRequest = event("12:34", "{}", Instant.now());
			OutboxEvent inBackground = event("56:78", "{}", Instant.now());
			Span request = tracer.nextSpan().name("POST /api/swipes").start();
			try (Tracer.SpanInScope scope = tracer.withSpan(request)) {
				db.transactions.executeWithoutResult((status) -> traced.append(inRequest));
			}
			finally {
				request.end();
			}
			db.transactions.executeWithoutResult((status) -> traced.append(inBackground));

			assertThat(request.context().traceId()).hasSize(32);
			assertThat(traceparent(inRequest))
				.isEqualTo("00-" + request.context().traceId() + "-" + request.context().spanId() + "-01");
			assertThat(traceparent(inBackground)).isNull();
		}
	}

	@Test
	void eventsAppendedTogetherEachKeepTheTraceOfTheirOwnRequest() {
		OutboxEvent first = event("1:2", "{}", Instant.now());
		OutboxEvent untraced = event("3:4", "{}", Instant.now());
		OutboxEvent third = event("5:6", "{}", Instant.now());
		String firstTrace = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
		String thirdTrace = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00";
		db.transactions
			.executeWithoutResult((status) -> writer.appendTraced(List.of(new OutboxWriter.Traced(first, firstTrace),
					new OutboxWriter.Traced(untraced, null), new OutboxWriter.Traced(third, thirdTrace))));

		assertThat(traceparent(first)).isEqualTo(firstTrace);
		assertThat(traceparent(untraced)).isNull();
		assertThat(traceparent(third)).isEqualTo(thirdTrace);
		assertThat(db.jdbc.sql("SELECT event_key FROM " + TABLE + " ORDER BY id").query(String.class).list())
			.containsExactly("1:2", "3:4", "5:6");
	}

	@Test
	void aTraceThatIsNotSampledIsStoredAsNotSampled() {
		// W3C carries the trace on either way; the flag tells the consumer not to record
		try (Tracing tracing = Tracing.newBuilder().traceId128Bit(true).sampler(Sampler.NEVER_SAMPLE).build()) {
			Tracer tracer = new BraveTracer(tracing.tracer(),
					new BraveCurrentTraceContext(tracing.currentTraceContext()));
			OutboxWriter traced = new OutboxWriter(db.jdbc, TABLE, OutboxWakeUp.none(),
					new MicrometerTraceParentSource(tracer));
			OutboxEvent event = event("12:34", "{}", Instant.now());
			Span request = tracer.nextSpan().start();
			try (Tracer.SpanInScope scope = tracer.withSpan(request)) {
				db.transactions.executeWithoutResult((status) -> traced.append(event));
			}
			assertThat(traceparent(event))
				.isEqualTo("00-" + request.context().traceId() + "-" + request.context().spanId() + "-00");
		}
	}

	@Test
	void anEventAppendedAgainKeepsTheTraceOfItsFirstAppend() {
		try (Tracing tracing = Tracing.newBuilder().traceId128Bit(true).build()) {
			Tracer tracer = new BraveTracer(tracing.tracer(),
					new BraveCurrentTraceContext(tracing.currentTraceContext()));
			OutboxWriter traced = new OutboxWriter(db.jdbc, TABLE, OutboxWakeUp.none(),
					new MicrometerTraceParentSource(tracer));
			OutboxEvent event = event("12:34", "{}", Instant.now());
			@Nullable String first = null;
			for (int request = 0; request < 2; request++) {
				Span span = tracer.nextSpan().start();
				try (Tracer.SpanInScope scope = tracer.withSpan(span)) {
					db.transactions.executeWithoutResult((status) -> traced.append(event));
				}
				if (first == null) {
					first = MicrometerTraceParentSource.traceparent(span.context());
				}
			}
			assertThat(traceparent(event)).isNotNull().isEqualTo(first);
		}
	}

	@Test
	void anEventOutsideATransactionIsRefused() {
		assertThatIllegalStateException().isThrownBy(() -> writer.append(event("a", "{}", Instant.now())))
			.withMessageContaining("transaction");
		assertThat(db.count(TABLE)).isZero();
	}

	private static void appendRetryingDeadlocks(OutboxEvent event, AtomicInteger deadlocks) {
		while (true) {
			try {
				db.transactions.executeWithoutResult((status) -> writer.append(event));
				return;
			}
			catch (PessimisticLockingFailureException ex) {
				// InnoDB may refuse one of two concurrent inserts of one key as a
				// deadlock; that caller's transaction fails whole, and it tries again
				deadlocks.incrementAndGet();
			}
		}
	}

	private static @Nullable Object traceparent(OutboxEvent event) {
		return db.jdbc.sql("SELECT traceparent FROM " + TABLE + " WHERE event_id = :id")
			.param("id", event.eventId().toString())
			.query()
			.singleRow()
			.get("traceparent");
	}

	static OutboxEvent event(String key, String payload, Instant occurredAt) {
		return new OutboxEvent(UUID.randomUUID(), "MATCH_CREATED", key, payload, occurredAt);
	}

	private static long crc32(String text) {
		CRC32 crc = new CRC32();
		crc.update(text.getBytes(StandardCharsets.UTF_8));
		return crc.getValue();
	}

}
