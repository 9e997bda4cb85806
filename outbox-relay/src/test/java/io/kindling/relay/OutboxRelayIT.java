package io.kindling.relay;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import io.cloudevents.CloudEvent;
import io.cloudevents.SpecVersion;
import io.cloudevents.kafka.CloudEventDeserializer;
import io.kindling.infra.http.Request;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServiceClient;
import io.kindling.infra.test.RealServers;
import io.kindling.outbox.OutboxEvent;
import io.kindling.outbox.OutboxWakeUp;
import io.kindling.outbox.OutboxWriter;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.RealServersExtension;
import io.kindling.relay.retention.RetentionCleanup;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One relay in this JVM, publishing two sources on the real MariaDB to the real Kafka.
 */
@RealServers(value = { Server.MARIADB, Server.KAFKA }, database = "relay_it")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class OutboxRelayIT {

	static final String ADMIN_TOKEN = "test-admin-token-0123456789";

	static OutboxDatabase matches;

	static OutboxDatabase rooms;

	static TopicReader matchesTopic;

	static TopicReader roomsTopic;

	@LocalServerPort
	int port;

	@Autowired
	MeterRegistry meters;

	@Autowired
	RetentionCleanup retentionCleanup;

	@Autowired
	Clock clock;

	@DynamicPropertySource
	static void sources(DynamicPropertyRegistry registry) {
		matches = new OutboxDatabase("relay_it_swipe", "match_outbox");
		rooms = new OutboxDatabase("relay_it_matching", "room_outbox");
		String kafka = RealServersExtension.kafka().bootstrapServers();
		matchesTopic = new TopicReader(kafka, "it.matches");
		roomsTopic = new TopicReader(kafka, "it.rooms");
		registry.add("kindling.relay.sources[0].name", () -> "matches");
		registry.add("kindling.relay.sources[0].url", matches::jdbcUrl);
		registry.add("kindling.relay.sources[0].table", () -> "match_outbox");
		registry.add("kindling.relay.sources[0].topic", () -> "it.matches");
		registry.add("kindling.relay.sources[1].name", () -> "rooms");
		registry.add("kindling.relay.sources[1].url", rooms::jdbcUrl);
		registry.add("kindling.relay.sources[1].table", () -> "room_outbox");
		registry.add("kindling.relay.sources[1].topic", () -> "it.rooms");
		registry.add("kindling.relay.max-attempts", () -> "3");
		registry.add("kindling.relay.backoff.initial", () -> "20ms");
		registry.add("kindling.relay.backoff.max", () -> "100ms");
		registry.add("kindling.relay.admin-token", () -> ADMIN_TOKEN);
		registry.add("kindling.relay.stats-interval", () -> "200ms");
		// never the default UDP 8083 of the relay the lead runs
		registry.add("kindling.relay.wake-up-port", () -> "0");
	}

	@AfterAll
	static void close() throws InterruptedException {
		matchesTopic.close();
		roomsTopic.close();
		matches.close();
		rooms.close();
	}

	@Test
	void committedRowsArriveAsTheyWereWrittenAndRolledBackRowsNever() {
		String committed = matches.write("12:34", ",\"match_id\":9");
		String room = rooms.write("room-1", ",\"room_id\":\"room-1\"");
		String rolledBack = UUID.randomUUID().toString();
		try {
			matches.transactions.executeWithoutResult((status) -> {
				matches.writer.append(OutboxDatabase.event(rolledBack, "12:34", ""));
				throw new IllegalStateException("the fact's transaction fails");
			});
		}
		catch (IllegalStateException expected) {
			// the rows of this transaction never existed
		}
		String after = matches.write("12:34", ",\"match_id\":10");

		await().atMost(Duration.ofSeconds(20))
			.until(() -> matchesTopic.eventIds().containsAll(List.of(committed, after)));
		await().atMost(Duration.ofSeconds(20)).until(() -> roomsTopic.eventIds().contains(room));

		ConsumerRecord<String, String> record = matchesTopic.records()
			.stream()
			.filter((r) -> TopicReader.header(r, "event_id").equals(committed))
			.findFirst()
			.orElseThrow();
		assertThat(record.key()).isEqualTo("12:34");
		assertThat(TopicReader.header(record, "event_type")).isEqualTo("MATCH_CREATED");
		assertThat(record.value()).isEqualTo(matches.jdbc.sql("SELECT payload FROM match_outbox WHERE event_id = ?")
			.param(committed)
			.query(String.class)
			.single());
		assertThat(matchesTopic.firstOccurrencesByKey().get("12:34")).containsSubsequence(committed, after);
		assertThat(matchesTopic.eventIds()).doesNotContain(rolledBack);
		assertThat(matches.jdbc.sql("SELECT COUNT(*) FROM match_outbox WHERE event_id = ? AND published_at IS NOT NULL")
			.param(committed)
			.query(Integer.class)
			.single()).isOne();
		assertThat(this.meters.get("kindling.relay.published").tag("source", "matches").counter().count())
			.isGreaterThanOrEqualTo(2);
		assertThat(this.meters.get("kindling.relay.latency").tag("source", "matches").timer().count())
			.isGreaterThanOrEqualTo(2);
	}

	@Test
	void anEventsTimeIsKeptToTheMicrosecondAndItsNonAsciiPayloadArrivesUnchanged() {
		String eventId = UUID.randomUUID().toString();
		Instant occurredAt = Instant.parse("2026-12-03T10:15:30.123456Z");
		String payload = "{\"event_id\":\"" + eventId + "\",\"bio\":\"Zoë, 東京 🔥\"}";
		matches.transactions.executeWithoutResult((status) -> matches.writer
			.append(new OutboxEvent(UUID.fromString(eventId), "MATCH_CREATED", "time:1", payload, occurredAt)));

		// as the driver reads it, and as the claim reads it (epoch microseconds)
		Instant stored = matches.jdbc.sql("SELECT created_at FROM match_outbox WHERE event_id = ?")
			.param(eventId)
			.query(Timestamp.class)
			.single()
			.toInstant();
		assertThat(stored).isEqualTo(occurredAt);
		assertThat(matches.jdbc
			.sql("SELECT CAST(UNIX_TIMESTAMP(created_at) * 1000000 AS SIGNED) FROM match_outbox WHERE event_id = ?")
			.param(eventId)
			.query(Long.class)
			.single()).isEqualTo(ChronoUnit.MICROS.between(Instant.EPOCH, stored));

		await().atMost(Duration.ofSeconds(20)).until(() -> matchesTopic.eventIds().contains(eventId));
		assertThat(matchesTopic.records()
			.stream()
			.filter((r) -> TopicReader.header(r, "event_id").equals(eventId))
			.map(ConsumerRecord::value)
			.findFirst()).contains(payload);
	}

	@Test
	void everyRecordCarriesCloudEventsHeadersThatTheSdkReadsAndTheTraceOfTheRequestThatWroteIt() {
		String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
		OutboxWriter inRequest = new OutboxWriter(matches.jdbc, "match_outbox", OutboxWakeUp.none(), () -> traceparent);
		String traced = UUID.randomUUID().toString();
		Instant occurredAt = Instant.parse("2026-12-03T10:15:30.123456Z");
		String payload = "{\"event_id\":\"" + traced + "\",\"event_type\":\"MATCH_REMOVED\",\"event_key\":\"ce:1\"}";
		matches.transactions.executeWithoutResult((status) -> inRequest
			.append(new OutboxEvent(UUID.fromString(traced), "MATCH_REMOVED", "ce:1", payload, occurredAt)));
		// written with no trace active
		String untraced = matches.write("ce:1", "");
		String room = rooms.write("room-ce", "");
		await().atMost(Duration.ofSeconds(20))
			.until(() -> matchesTopic.eventIds().containsAll(List.of(traced, untraced)));
		await().atMost(Duration.ofSeconds(20)).until(() -> roomsTopic.eventIds().contains(room));

		ConsumerRecord<String, String> record = record(matchesTopic, traced);
		assertThat(TopicReader.header(record, "event_id")).isEqualTo(traced);
		assertThat(TopicReader.header(record, "event_type")).isEqualTo("MATCH_REMOVED");
		assertThat(TopicReader.header(record, "traceparent")).isEqualTo(traceparent);
		assertThat(TopicReader.header(record, "ce_specversion")).isEqualTo("1.0");
		assertThat(TopicReader.header(record, "ce_time")).isEqualTo("2026-12-03T10:15:30.123456Z");
		assertThat(record.value()).isEqualTo(payload);
		assertThat(record(matchesTopic, untraced).headers().lastHeader("traceparent")).isNull();

		// as a consumer using the CloudEvents SDK reads them
		CloudEvent event = cloudEvent("it.matches", traced);
		assertThat(event.getSpecVersion()).isEqualTo(SpecVersion.V1);
		assertThat(event.getId()).isEqualTo(traced);
		assertThat(event.getType()).isEqualTo("io.kindling.match.removed");
		assertThat(event.getSource()).isEqualTo(java.net.URI.create("/kindling/matches"));
		assertThat(event.getTime()).isNotNull();
		assertThat(event.getTime().toInstant()).isEqualTo(occurredAt);
		assertThat(event.getDataContentType()).isEqualTo("application/json");
		assertThat(event.getData()).isNotNull();
		assertThat(new String(event.getData().toBytes(), java.nio.charset.StandardCharsets.UTF_8)).isEqualTo(payload);
		assertThat(event.getSubject()).isNull();
		assertThat(event.getDataSchema()).isNull();
		// nothing else is read as an attribute: Kindling's own headers are not ce_
		// headers
		assertThat(event.getExtensionNames()).isEmpty();

		CloudEvent roomEvent = cloudEvent("it.rooms", room);
		assertThat(roomEvent.getId()).isEqualTo(room);
		assertThat(roomEvent.getSource()).isEqualTo(java.net.URI.create("/kindling/rooms"));
		assertThat(roomEvent.getType()).isEqualTo("io.kindling.match.created");
	}

	private static ConsumerRecord<String, String> record(TopicReader topic, String eventId) {
		return topic.records()
			.stream()
			.filter((r) -> TopicReader.header(r, "event_id").equals(eventId))
			.findFirst()
			.orElseThrow();
	}

	/**
	 * Reads the topic from its start with the SDK's deserializer until the event is
	 * found.
	 */
	private static CloudEvent cloudEvent(String topic, String eventId) {
		Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
				RealServersExtension.kafka().bootstrapServers(), ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
				StringDeserializer.class, ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, CloudEventDeserializer.class);
		try (KafkaConsumer<String, CloudEvent> consumer = new KafkaConsumer<>(config)) {
			List<TopicPartition> partitions = new ArrayList<>();
			for (int i = 0; i < TopicReader.PARTITIONS; i++) {
				partitions.add(new TopicPartition(topic, i));
			}
			consumer.assign(partitions);
			consumer.seekToBeginning(partitions);
			long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
			while (System.nanoTime() < deadline) {
				for (ConsumerRecord<String, CloudEvent> record : consumer.poll(Duration.ofMillis(200))) {
					if (record.value().getId().equals(eventId)) {
						return record.value();
					}
				}
			}
		}
		throw new AssertionError("no CloudEvent " + eventId + " on " + topic);
	}

	@Test
	void aPoisonRowIsParkedAfterMaxAttemptsShownOverHttpAndDeliveredAfterRetryOnceFixed() throws Exception {
		String key = "poison:" + UUID.randomUUID();
		// Larger than the producer's max.request.size (1 MiB): Kafka refuses it every
		// time.
		String poison = matches.write(key, ",\"padding\":\"" + "x".repeat(1_200_000) + "\"");
		String next = matches.write(key, "");

		await().atMost(Duration.ofSeconds(20))
			.until(() -> get("/api/outbox/parked", ADMIN_TOKEN).body().contains(poison));
		Response parked = get("/api/outbox/parked", ADMIN_TOKEN);
		assertThat(parked.status()).isEqualTo(200);
		assertThat(parked.body()).contains("\"id\":\"" + poison + "\"")
			.contains("\"source\":\"matches\"")
			.contains("\"attempts\":3")
			.contains("RecordTooLargeException");
		// Parking does not silently hold back the rest of its key.
		await().atMost(Duration.ofSeconds(20)).until(() -> matchesTopic.eventIds().contains(next));
		assertThat(matchesTopic.eventIds()).doesNotContain(poison);
		await().atMost(Duration.ofSeconds(5))
			.until(() -> this.meters.get("kindling.relay.parked").tag("source", "matches").gauge().value() >= 1);

		matches.jdbc.sql("UPDATE match_outbox SET payload = :payload WHERE event_id = :eventId")
			.param("payload", "{\"event_id\":\"" + poison + "\",\"fixed\":true}")
			.param("eventId", poison)
			.update();
		Response retried = post("/api/outbox/parked/" + poison + "/retry", ADMIN_TOKEN);
		assertThat(retried.status()).isEqualTo(200);
		assertThat(retried.body()).contains("\"status\":\"queued\"");

		await().atMost(Duration.ofSeconds(20)).until(() -> matchesTopic.eventIds().contains(poison));
		assertThat(get("/api/outbox/parked", ADMIN_TOKEN).body()).doesNotContain(poison);
		assertThat(post("/api/outbox/parked/" + poison + "/retry", ADMIN_TOKEN).status()).isEqualTo(404);
	}

	@Test
	void theParkedRowsApiWantsTheAdminToken() throws Exception {
		Response none = get("/api/outbox/parked", null);
		assertThat(none.status()).isEqualTo(401);
		assertThat(none.header("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/problem+json"));
		assertThat(none.header("WWW-Authenticate")).hasValue("Bearer");
		assertThat(get("/api/outbox/parked", "wrong-token").status()).isEqualTo(401);
		assertThat(post("/api/outbox/parked/" + UUID.randomUUID() + "/retry", null).status()).isEqualTo(401);
		Response withHeader = http().send(Request.get("/api/outbox/parked").header("X-Admin-Token", ADMIN_TOKEN));
		assertThat(withHeader.status()).isEqualTo(200);
		assertThat(post("/api/outbox/parked/not-an-id/retry", ADMIN_TOKEN).status()).isEqualTo(400);
		assertThat(post("/api/outbox/parked/" + UUID.randomUUID() + "/retry", ADMIN_TOKEN).status()).isEqualTo(404);
	}

	@Test
	void publishedRowsOlderThanTheRetentionAreDeletedInSmallBatchesAndNothingElse() {
		Instant now = this.clock.instant();
		insertRows("retention-old", 2_500, now.minus(Duration.ofDays(8)));
		insertRows("retention-recent", 10, now.minus(Duration.ofDays(6)));

		this.retentionCleanup.run();

		assertThat(countRows("retention-old")).isZero();
		assertThat(countRows("retention-recent")).isEqualTo(10);
	}

	private static void insertRows(String key, int count, Instant publishedAt) {
		StringBuilder values = new StringBuilder();
		for (int i = 0; i < count; i++) {
			values.append(i == 0 ? "" : ",")
				.append("('")
				.append(UUID.randomUUID())
				.append("','MATCH_CREATED','")
				.append(key)
				.append("',0,'{}',:at,:at)");
		}
		matches.jdbc
			.sql("INSERT INTO match_outbox (event_id, event_type, event_key, key_hash, payload, created_at, "
					+ "published_at) VALUES " + values)
			.param("at", Timestamp.from(publishedAt))
			.update();
	}

	private static int countRows(String key) {
		return matches.jdbc.sql("SELECT COUNT(*) FROM match_outbox WHERE event_key = ?")
			.param(key)
			.query(Integer.class)
			.single();
	}

	@Test
	void healthSaysUpToAnyoneAndNothingOfKafkaOrTheSources() throws Exception {
		Response health = get("/actuator/health", null);
		assertThat(health.status()).isEqualTo(200);
		assertThat(health.body()).contains("\"status\":\"UP\"")
			.doesNotContain("kafka")
			.doesNotContain("clusterId")
			.doesNotContain("outboxSources")
			.doesNotContain("jdbc");
	}

	@Test
	void kafkaStoppedForThirtySecondsWhileEventsAreWrittenLosesNothingAndKeepsPerKeyOrder() throws Exception {
		int events = 5_000;
		Duration outage = Duration.ofSeconds(30);
		List<String> keys = new ArrayList<>();
		for (int i = 0; i < 50; i++) {
			keys.add("outage:" + i);
		}
		Map<String, List<String>> writtenByKey = new HashMap<>();

		RealServersExtension.kafka().stop();
		try {
			Instant start = Instant.now();
			for (int i = 0; i < events; i++) {
				String key = keys.get(i % keys.size());
				writtenByKey.computeIfAbsent(key, (k) -> new ArrayList<>()).add(matches.write(key, ",\"seq\":" + i));
				// Spread the writes over the outage.
				long due = start.toEpochMilli() + outage.toMillis() * (i + 1) / events;
				long wait = due - System.currentTimeMillis();
				if (wait > 0) {
					Thread.sleep(wait);
				}
			}
			assertThat(get("/actuator/health", null).status()).isEqualTo(503);
		}
		finally {
			RealServersExtension.kafka().start();
		}

		Set<String> written = writtenByKey.values()
			.stream()
			.flatMap(List::stream)
			.collect(java.util.stream.Collectors.toSet());
		await().atMost(Duration.ofSeconds(90))
			.pollInterval(Duration.ofMillis(500))
			.until(() -> matchesTopic.eventIds().containsAll(written));
		Map<String, List<String>> arrivedByKey = matchesTopic.firstOccurrencesByKey();
		dumpIfOutOfOrder(keys, writtenByKey, arrivedByKey);
		for (String key : keys) {
			assertThat(arrivedByKey.get(key)).as("events of %s in commit order", key)
				.containsExactlyElementsOf(writtenByKey.get(key));
		}
	}

	private static void dumpIfOutOfOrder(List<String> keys, Map<String, List<String>> written,
			Map<String, List<String>> arrived) throws java.io.IOException {
		StringBuilder out = new StringBuilder();
		for (String key : keys) {
			if (arrived.get(key).equals(written.get(key))) {
				continue;
			}
			out.append("key ").append(key).append('\n');
			for (ConsumerRecord<String, String> r : matchesTopic.records()) {
				if (key.equals(r.key())) {
					String id = TopicReader.header(r, "event_id");
					out.append("  p")
						.append(r.partition())
						.append(" o")
						.append(r.offset())
						.append(" idx ")
						.append(written.get(key).indexOf(id))
						.append(" ts ")
						.append(r.timestamp())
						.append(' ')
						.append(matches.jdbc.sql(
								"SELECT CONCAT(id, ' ', created_at, ' ', IFNULL(published_at, '-'), ' a=', attempts, ' ', IFNULL(last_error, '-')) FROM match_outbox WHERE event_id = ?")
							.param(id)
							.query(String.class)
							.single())
						.append('\n');
				}
			}
			break;
		}
		java.nio.file.Files.writeString(java.nio.file.Path.of("target/outage-order.txt"), out.toString());
	}

	private Response get(String path, String token) {
		return http().get(path, token);
	}

	private Response post(String path, String token) {
		return http().send(Request.of("POST", path).bearer(token).body(new byte[0]));
	}

	private ServiceClient http() {
		return new ServiceClient(this.port);
	}

}
