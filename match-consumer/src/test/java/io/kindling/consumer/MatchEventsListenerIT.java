package io.kindling.consumer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.TraceContext;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.RealServersExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.kafka.listener.RetryListener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The match consumer on the real Kafka and MariaDB, fed records as the relay publishes
 * them (key {@code event_key}, the event's JSON as value, its headers): a repeat takes
 * effect once, a record that cannot be processed goes to the dead-letter topic without
 * holding back the records behind it, each key's events take effect in order, a database
 * outage dead-letters nothing, and each record's span continues its trace.
 */
@RealServers(value = { Server.MARIADB, Server.KAFKA }, database = "kindling_match_consumer")
@SpringBootTest(properties = { "kindling.match-consumer.retry.initial-interval=50ms",
		"kindling.match-consumer.retry.max-interval=500ms", "kindling.match-consumer.retry.max-retries=2" })
@Import(MatchEventsListenerIT.TestBeans.class)
class MatchEventsListenerIT {

	/** As many as the relay gives its topics, so keys spread over all three threads. */
	static final int PARTITIONS = 12;

	private static final AtomicLong nextUser = new AtomicLong(
			1_000_000L + ThreadLocalRandom.current().nextLong(1_000_000) * 1_000);

	static KafkaProducer<String, String> relay;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	FailedAttempts failedAttempts;

	@Autowired
	FinishedSpans spans;

	/** Before the context: the listener finds the topic as the relay makes it. */
	@BeforeAll
	static void topic() throws Exception {
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
			for (String topic : List.of(MatchEventsListener.TOPIC, MatchEventsListener.MESSAGES_TOPIC)) {
				try {
					admin.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1))).all().get();
				}
				catch (ExecutionException ex) {
					if (!(ex.getCause() instanceof TopicExistsException)) {
						throw ex;
					}
				}
			}
		}
		relay = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
				ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
				ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class));
	}

	@AfterAll
	static void close() {
		relay.close();
	}

	@Test
	void aRepeatedEventIsSkippedAndTakesEffectOnce() {
		Pair pair = newPair();
		UUID created = UUID.randomUUID();
		String value = created(created, 7, pair);
		// at least once: the relay sent it again, or a consumer read it again
		for (int i = 0; i < 3; i++) {
			send(pair.key(), value);
		}
		UUID removed = UUID.randomUUID();
		send(pair.key(), removed(removed, 7, pair, pair.lower()));

		// the last record of the key took effect, so the repeats before it were read
		await().atMost(Duration.ofSeconds(30)).until(() -> notifications(pair.higher()).size() >= 2);
		assertThat(notifications(pair.higher())).containsExactly(created + " MATCHED", removed + " UNMATCHED");
		assertThat(notifications(pair.lower())).containsExactly(created + " MATCHED");
		assertThat(this.jdbc.sql("SELECT COUNT(*) FROM processed_events WHERE event_id = :id")
			.param("id", created.toString())
			.query(Long.class)
			.single()).isOne();
	}

	@Test
	void aMessageTellsItsRecipientOnceAndAMalformedOneGoesToTheMessagesDeadLetterTopic() {
		Pair pair = newPair();
		long matchId = pair.lower() * 100;
		String key = String.valueOf(matchId);
		UUID first = UUID.randomUUID();
		UUID reply = UUID.randomUUID();
		String value = messageSent(first, matchId, 1, pair.lower(), pair.higher());
		sendTo(MatchEventsListener.MESSAGES_TOPIC, key, value);
		sendTo(MatchEventsListener.MESSAGES_TOPIC, key, value);
		RecordMetadata malformed = sendTo(MatchEventsListener.MESSAGES_TOPIC, key,
				"{\"event_id\":\"" + UUID.randomUUID() + "\",\"event_type\":\"MESSAGE_SENT\"}");
		sendTo(MatchEventsListener.MESSAGES_TOPIC, key, messageSent(reply, matchId, 2, pair.higher(), pair.lower()));

		await().atMost(Duration.ofSeconds(30)).until(() -> !notifications(pair.lower()).isEmpty());
		assertThat(notifications(pair.higher())).containsExactly(first + " MESSAGE");
		assertThat(notifications(pair.lower())).containsExactly(reply + " MESSAGE");
		assertThat(this.jdbc.sql("SELECT other_user_id FROM match_notifications WHERE event_id = :id")
			.param("id", first.toString())
			.query(Long.class)
			.single()).isEqualTo(pair.lower());
		List<ConsumerRecord<String, String>> deadLetters = await().atMost(Duration.ofSeconds(30))
			.until(() -> deadLetters(MatchEventsErrorHandling.MESSAGES_DEAD_LETTER_TOPIC, key),
					(records) -> !records.isEmpty());
		assertThat(deadLetters).hasSize(1);
		assertThat(originalOffset(deadLetters.get(0))).isEqualTo(malformed.offset());
		assertThat(header(deadLetters.get(0), "kafka_dlt-exception-cause-fqcn"))
			.isEqualTo(MalformedEvent.class.getName());
	}

	@Test
	void aRecordThatCannotBeProcessedIsDeadLetteredAndTheRecordsBehindItTakeEffect() {
		Pair pair = newPair();
		UUID created = UUID.randomUUID();
		UUID removed = UUID.randomUUID();
		RecordMetadata first = send(pair.key(), created(created, 8, pair));
		// not JSON: dead-lettered at once
		RecordMetadata notJson = send(pair.key(), "{\"event_id\":");
		// an event the database refuses (one person matched with themselves): retried,
		// then dead-lettered
		UUID refused = UUID.randomUUID();
		RecordMetadata refusedByDatabase = send(pair.key(), created(refused, 9, new Pair(pair.lower(), pair.lower())));
		RecordMetadata last = send(pair.key(), removed(removed, 8, pair, pair.lower()));
		assertThat(List.of(notJson.partition(), refusedByDatabase.partition(), last.partition()))
			.as("one key, one partition")
			.containsOnly(first.partition());

		await().atMost(Duration.ofSeconds(30))
			.until(() -> notifications(pair.higher()).contains(removed + " UNMATCHED"));
		assertThat(notifications(pair.higher())).containsExactly(created + " MATCHED", removed + " UNMATCHED");
		assertThat(notifications(pair.lower())).containsExactly(created + " MATCHED");

		List<ConsumerRecord<String, String>> deadLetters = await().atMost(Duration.ofSeconds(30))
			.until(() -> deadLetters(pair.key()), (records) -> records.size() >= 2);
		assertThat(deadLetters).hasSize(2);
		ConsumerRecord<String, String> malformed = deadLetters.get(0);
		assertThat(malformed.value()).isEqualTo("{\"event_id\":");
		assertThat(originalOffset(malformed)).isEqualTo(notJson.offset());
		assertThat(header(malformed, "kafka_dlt-exception-cause-fqcn")).isEqualTo(MalformedEvent.class.getName());
		assertThat(this.failedAttempts.of(notJson)).as("not retried").isLessThanOrEqualTo(1);

		ConsumerRecord<String, String> database = deadLetters.get(1);
		assertThat(header(database, "event_id")).as("the record's own headers are kept").isEqualTo(refused.toString());
		assertThat(originalOffset(database)).isEqualTo(refusedByDatabase.offset());
		assertThat(header(database, "kafka_dlt-exception-message")).contains("ck_match_notifications_two_people");
		assertThat(this.failedAttempts.of(refusedByDatabase)).as("tried once and retried twice").isEqualTo(3);
		// its transaction rolled back whole: not even marked processed
		assertThat(this.jdbc.sql("SELECT COUNT(*) FROM processed_events WHERE event_id = :id")
			.param("id", refused.toString())
			.query(Long.class)
			.single()).isZero();
	}

	@Test
	void eachKeysEventsTakeEffectInTheOrderTheyWerePublished() {
		int keys = 36;
		int eventsPerKey = 10;
		List<Pair> pairs = new ArrayList<>();
		Map<Pair, List<String>> published = new LinkedHashMap<>();
		for (int k = 0; k < keys; k++) {
			Pair pair = newPair();
			pairs.add(pair);
			published.put(pair, new ArrayList<>());
		}
		Set<Integer> partitions = ConcurrentHashMap.newKeySet();
		// the keys' events interleaved, as many writers commit them; a poison record now
		// and then
		for (int i = 0; i < eventsPerKey; i++) {
			for (Pair pair : pairs) {
				long matchId = pair.lower() * 100 + i / 2;
				UUID eventId = UUID.randomUUID();
				boolean create = i % 2 == 0;
				partitions.add(send(pair.key(),
						create ? created(eventId, matchId, pair) : removed(eventId, matchId, pair, pair.lower()))
					.partition());
				published.get(pair).add(eventId + (create ? " MATCHED" : " UNMATCHED"));
				if (ThreadLocalRandom.current().nextInt(20) == 0) {
					send(pair.key(), "poison");
				}
			}
		}
		assertThat(partitions).as("keys over many partitions").hasSizeGreaterThan(PARTITIONS / 2);

		await().atMost(Duration.ofSeconds(60))
			.until(() -> pairs.stream().allMatch((pair) -> notifications(pair.higher()).size() == eventsPerKey));
		for (Pair pair : pairs) {
			assertThat(notifications(pair.higher())).as("events of %s", pair.key())
				.containsExactlyElementsOf(published.get(pair));
		}
	}

	@Test
	void whileTheDatabaseIsDownRecordsWaitAndNoneIsDeadLettered() throws Exception {
		Pair pair = newPair();
		List<String> expected = new ArrayList<>();
		List<RecordMetadata> sent = new ArrayList<>();
		int before = this.failedAttempts.total();
		RealServersExtension.mariaDb().stop();
		try {
			for (int i = 0; i < 4; i++) {
				UUID eventId = UUID.randomUUID();
				boolean create = i % 2 == 0;
				sent.add(send(pair.key(), create ? created(eventId, 10 + i / 2, pair)
						: removed(eventId, 10 + i / 2, pair, pair.lower())));
				expected.add(eventId + (create ? " MATCHED" : " UNMATCHED"));
			}
			// the listener tried, failed for want of a database, and will try again
			await().atMost(Duration.ofSeconds(60)).until(() -> this.failedAttempts.of(sent.get(0)) >= 3);
			assertThat(this.failedAttempts.total() - before).isGreaterThanOrEqualTo(3);
			assertThat(committedOffset(sent.get(0))).as("nothing acknowledged")
				.isLessThanOrEqualTo(sent.get(0).offset());
		}
		finally {
			RealServersExtension.mariaDb().start();
		}

		// the pool reconnects within a few tries
		await().atMost(Duration.ofSeconds(60))
			.ignoreException(CannotGetJdbcConnectionException.class)
			.until(() -> notifications(pair.higher()).size() >= expected.size());
		assertThat(notifications(pair.higher())).containsExactlyElementsOf(expected);
		assertThat(deadLetters(pair.key())).isEmpty();
	}

	@Test
	void eachRecordsSpanContinuesTheTraceOfTheRequestThatCausedIt() {
		Pair pair = newPair();
		String traceId = HexFormat.of().formatHex(randomBytes(16));
		String requestSpanId = HexFormat.of().formatHex(randomBytes(8));
		UUID created = UUID.randomUUID();
		ProducerRecord<String, String> record = record(pair.key(), created(created, 11, pair));
		record.headers()
			.add("traceparent", ("00-" + traceId + "-" + requestSpanId + "-01").getBytes(StandardCharsets.UTF_8));
		sendRecord(record);

		await().atMost(Duration.ofSeconds(30)).until(() -> !notifications(pair.higher()).isEmpty());
		MutableSpan span = await().atMost(Duration.ofSeconds(10))
			.until(() -> this.spans.ofTrace(traceId), Optional::isPresent)
			.orElseThrow();
		assertThat(span.kind()).isEqualTo(brave.Span.Kind.CONSUMER);
		assertThat(span.parentId()).as("the request's span, from the header").isEqualTo(requestSpanId);
		assertThat(span.name()).contains(MatchEventsListener.TOPIC);
	}

	private List<String> notifications(long userId) {
		return this.jdbc
			.sql("SELECT CONCAT(event_id, ' ', kind) FROM match_notifications WHERE user_id = :user ORDER BY id")
			.param("user", userId)
			.query(String.class)
			.list();
	}

	private long committedOffset(RecordMetadata sent) throws Exception {
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
			Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets("match-notifier")
				.partitionsToOffsetAndMetadata()
				.get();
			OffsetAndMetadata committed = offsets.get(new TopicPartition(sent.topic(), sent.partition()));
			return (committed != null) ? committed.offset() : 0;
		}
	}

	/** The dead-letter topic's records of one key, read from its start to its end. */
	private static List<ConsumerRecord<String, String>> deadLetters(String key) {
		return deadLetters(MatchEventsErrorHandling.DEAD_LETTER_TOPIC, key);
	}

	/** A dead-letter topic's records of one key, read from its start to its end. */
	private static List<ConsumerRecord<String, String>> deadLetters(String topic, String key) {
		Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
				ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
				ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
		List<ConsumerRecord<String, String>> found = new ArrayList<>();
		try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
			List<TopicPartition> partitions = consumer.partitionsFor(topic)
				.stream()
				.map((info) -> new TopicPartition(info.topic(), info.partition()))
				.toList();
			consumer.assign(partitions);
			consumer.seekToBeginning(partitions);
			Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
			long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
			while (ends.entrySet().stream().anyMatch((end) -> consumer.position(end.getKey()) < end.getValue())) {
				if (System.nanoTime() > deadline) {
					throw new IllegalStateException("the dead-letter topic was not read to its end in 20 s");
				}
				for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
					if (key.equals(record.key())) {
						found.add(record);
					}
				}
			}
		}
		return found;
	}

	/**
	 * Where the dead letter was on its own topic (a header the recoverer writes as 8
	 * bytes).
	 */
	private static long originalOffset(ConsumerRecord<String, String> deadLetter) {
		Header header = deadLetter.headers().lastHeader("kafka_dlt-original-offset");
		assertThat(header).isNotNull();
		return java.nio.ByteBuffer.wrap(header.value()).getLong();
	}

	private static @Nullable String header(ConsumerRecord<String, String> record, String name) {
		Header header = record.headers().lastHeader(name);
		return (header != null) ? new String(header.value(), StandardCharsets.UTF_8) : null;
	}

	/**
	 * As the relay sends it: key, value and Kindling's own headers (when the value has
	 * them).
	 */
	private static RecordMetadata send(String key, String value) {
		return sendRecord(record(key, value));
	}

	private static RecordMetadata sendTo(String topic, String key, String value) {
		return sendRecord(record(topic, key, value));
	}

	private static ProducerRecord<String, String> record(String key, String value) {
		return record(MatchEventsListener.TOPIC, key, value);
	}

	private static ProducerRecord<String, String> record(String topic, String key, String value) {
		ProducerRecord<String, String> record = new ProducerRecord<>(topic, key, value);
		java.util.regex.Matcher id = java.util.regex.Pattern.compile("\"event_id\":\"([^\"]+)\"").matcher(value);
		java.util.regex.Matcher type = java.util.regex.Pattern.compile("\"event_type\":\"([^\"]+)\"").matcher(value);
		if (id.find() && type.find()) {
			record.headers().add("event_id", id.group(1).getBytes(StandardCharsets.UTF_8));
			record.headers().add("event_type", type.group(1).getBytes(StandardCharsets.UTF_8));
		}
		return record;
	}

	private static RecordMetadata sendRecord(ProducerRecord<String, String> record) {
		try {
			return relay.send(record).get();
		}
		catch (ExecutionException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	static String created(UUID eventId, long matchId, Pair pair) {
		return """
				{"event_id":"%s","event_type":"MATCH_CREATED","event_key":"%s","match_id":%d,"user_ids":[%d,%d],\
				"matched_at":"%s","occurred_at":"%s"}""".formatted(eventId, pair.key(), matchId, pair.lower(),
				pair.higher(), Instant.now(), Instant.now());
	}

	static String removed(UUID eventId, long matchId, Pair pair, long removedBy) {
		return """
				{"event_id":"%s","event_type":"MATCH_REMOVED","event_key":"%s","match_id":%d,"user_ids":[%d,%d],\
				"matched_at":"%s","removed_at":"%s","removed_by":%d,"occurred_at":"%s"}""".formatted(eventId,
				pair.key(), matchId, pair.lower(), pair.higher(), Instant.now(), Instant.now(), removedBy,
				Instant.now());
	}

	static String messageSent(UUID eventId, long matchId, long messageId, long from, long to) {
		return """
				{"event_id":"%s","event_type":"MESSAGE_SENT","match_id":%d,"message_id":%d,"from_user_id":%d,\
				"to_user_id":%d,"sent_at":"%s"}""".formatted(eventId, matchId, messageId, from, to, Instant.now());
	}

	private static Pair newPair() {
		long lower = nextUser.getAndAdd(2);
		return new Pair(lower, lower + 1);
	}

	private static byte[] randomBytes(int count) {
		byte[] bytes = new byte[count];
		ThreadLocalRandom.current().nextBytes(bytes);
		return bytes;
	}

	private static String bootstrapServers() {
		return RealServersExtension.kafka().bootstrapServers();
	}

	/** Two people; their events' key. */
	record Pair(long lower, long higher) {

		String key() {
			return this.lower + ":" + this.higher;
		}

	}

	/**
	 * Counts the listener's failed attempts per record, as the error handler sees them.
	 */
	static final class FailedAttempts implements RetryListener {

		private final Map<String, AtomicInteger> byRecord = new ConcurrentHashMap<>();

		private final AtomicInteger total = new AtomicInteger();

		@Override
		public void failedDelivery(ConsumerRecord<?, ?> record, Exception ex, int deliveryAttempt) {
			this.byRecord
				.computeIfAbsent(id(record.topic(), record.partition(), record.offset()), (id) -> new AtomicInteger())
				.incrementAndGet();
			this.total.incrementAndGet();
		}

		int of(RecordMetadata sent) {
			AtomicInteger count = this.byRecord.get(id(sent.topic(), sent.partition(), sent.offset()));
			return (count != null) ? count.get() : 0;
		}

		int total() {
			return this.total.get();
		}

		private static String id(String topic, int partition, long offset) {
			return topic + "-" + partition + "@" + offset;
		}

	}

	/** The spans Brave finished in this JVM. */
	static final class FinishedSpans extends SpanHandler {

		private final List<MutableSpan> finished = new CopyOnWriteArrayList<>();

		@Override
		public boolean end(TraceContext context, MutableSpan span, Cause cause) {
			this.finished.add(span);
			return true;
		}

		Optional<MutableSpan> ofTrace(String traceId) {
			return this.finished.stream().filter((span) -> traceId.equals(span.traceId())).findFirst();
		}

	}

	@TestConfiguration(proxyBeanMethods = false)
	static class TestBeans {

		@Bean
		FailedAttempts failedAttempts() {
			return new FailedAttempts();
		}

		@Bean
		FinishedSpans finishedSpans() {
			return new FinishedSpans();
		}

	}

}
