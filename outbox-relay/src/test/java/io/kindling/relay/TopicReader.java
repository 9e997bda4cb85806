package io.kindling.relay;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads a whole topic from the beginning in the background, as a consumer would, and
 * keeps every record (duplicates included) in offset order per partition.
 */
final class TopicReader implements AutoCloseable {

	static final int PARTITIONS = 6;

	private final List<ConsumerRecord<String, String>> records = new ArrayList<>();

	private final Thread poller;

	private volatile boolean running = true;

	private final String bootstrapServers;

	private final String topic;

	TopicReader(String bootstrapServers, String topic) {
		this.bootstrapServers = bootstrapServers;
		this.topic = topic;
		createTopic(bootstrapServers, topic);
		this.poller = Thread.ofPlatform().name("reader-" + topic).daemon().start(() -> poll(bootstrapServers, topic));
	}

	private static void createTopic(String bootstrapServers, String topic) {
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
			admin.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1))).all().get();
		}
		catch (ExecutionException ex) {
			if (!(ex.getCause() instanceof TopicExistsException)) {
				throw new IllegalStateException(ex);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private void poll(String bootstrapServers, String topic) {
		Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
				ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
				ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
				ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000, ConsumerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 500);
		try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
			List<TopicPartition> partitions = new ArrayList<>();
			for (int i = 0; i < PARTITIONS; i++) {
				partitions.add(new TopicPartition(topic, i));
			}
			consumer.assign(partitions);
			consumer.seekToBeginning(partitions);
			while (this.running) {
				var polled = consumer.poll(Duration.ofMillis(100));
				synchronized (this.records) {
					polled.forEach(this.records::add);
				}
			}
		}
	}

	/**
	 * Whether every record on the topic when this is asked has been read (no transactions
	 * write to it, so the end offset is the last record's plus one).
	 */
	boolean hasReadToTheEnd() throws ExecutionException, InterruptedException {
		Map<TopicPartition, OffsetSpec> latest = new LinkedHashMap<>();
		for (int i = 0; i < PARTITIONS; i++) {
			latest.put(new TopicPartition(this.topic, i), OffsetSpec.latest());
		}
		Map<TopicPartition, Long> read = new LinkedHashMap<>();
		for (ConsumerRecord<String, String> record : records()) {
			read.merge(new TopicPartition(record.topic(), record.partition()), record.offset() + 1, Math::max);
		}
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, this.bootstrapServers))) {
			var ends = admin.listOffsets(latest).all().get();
			return ends.entrySet()
				.stream()
				.allMatch((end) -> read.getOrDefault(end.getKey(), 0L) >= end.getValue().offset());
		}
	}

	/** Every record so far, in offset order within each partition. */
	List<ConsumerRecord<String, String>> records() {
		synchronized (this.records) {
			List<ConsumerRecord<String, String>> copy = new ArrayList<>(this.records);
			copy.sort(Comparator.comparingInt((ConsumerRecord<String, String> r) -> r.partition())
				.thenComparingLong(ConsumerRecord::offset));
			return copy;
		}
	}

	/** The distinct event ids received so far. */
	Set<String> eventIds() {
		Set<String> ids = new LinkedHashSet<>();
		for (ConsumerRecord<String, String> record : records()) {
			ids.add(header(record, "event_id"));
		}
		return ids;
	}

	/**
	 * Per key, the event ids in the order a de-duplicating consumer sees them: first
	 * occurrences, in offset order.
	 */
	Map<String, List<String>> firstOccurrencesByKey() {
		Map<String, List<String>> byKey = new LinkedHashMap<>();
		Set<String> seen = new LinkedHashSet<>();
		for (ConsumerRecord<String, String> record : records()) {
			String eventId = header(record, "event_id");
			if (seen.add(eventId)) {
				byKey.computeIfAbsent(record.key(), (key) -> new ArrayList<>()).add(eventId);
			}
		}
		return byKey;
	}

	static String header(ConsumerRecord<String, String> record, String name) {
		Header header = record.headers().lastHeader(name);
		return (header != null) ? new String(header.value(), StandardCharsets.UTF_8) : "";
	}

	@Override
	public void close() throws InterruptedException {
		this.running = false;
		this.poller.join(5000);
	}

}
