package io.kindling.infra.bench.relay;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * The relay bench's topics, 12 partitions each, and how it reads them: the drain by the
 * end offsets alone, the latency runs by a consumer noting when each event arrives.
 */
final class Topics {

	static final String RELAY = "bench.matches";

	static final String NAIVE = "bench.naive";

	static final String ROOMS = "bench.rooms";

	/** The relay as it was: five requests in flight, one producer. */
	static final String FIVE_IN_FLIGHT = "bench.five-in-flight";

	/** One request in flight, one producer for every worker. */
	static final String ONE_PRODUCER = "bench.one-producer";

	/** The relay as it is, drained once more after the others. */
	static final String AGAIN = "bench.again";

	private static final int PARTITIONS = 12;

	private Topics() {
	}

	static void create(String bootstrapServers, short replicas) throws Exception {
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
			admin.createTopics(List.of(new NewTopic(RELAY, PARTITIONS, replicas),
					new NewTopic(NAIVE, PARTITIONS, replicas), new NewTopic(ROOMS, PARTITIONS, replicas),
					new NewTopic(FIVE_IN_FLIGHT, PARTITIONS, replicas),
					new NewTopic(ONE_PRODUCER, PARTITIONS, replicas)))
				.all()
				.get();
		}
	}

	private static Map<String, Object> consumerConfig(String bootstrapServers) {
		Map<String, Object> config = new HashMap<>();
		config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
		config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
		config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
		return config;
	}

	private static List<TopicPartition> partitions(String topic) {
		List<TopicPartition> partitions = new ArrayList<>();
		for (int i = 0; i < PARTITIONS; i++) {
			partitions.add(new TopicPartition(topic, i));
		}
		return partitions;
	}

	/** A drain: its records, and the seconds from the first on the topic to the last. */
	record Drain(long records, double seconds) {

		double perSecond() {
			return this.records / this.seconds;
		}

	}

	/**
	 * Waits until the topic holds {@code records} records, reading only its end offsets:
	 * the publish rate is the relay's and Kafka's, so no consumer competes with them for
	 * the two cores while it is measured. The relay's producer is idempotent, so every
	 * record counted is one row published once.
	 * @return the records and the time from the first record on the topic to the last
	 */
	static Drain awaitPublished(String bootstrapServers, String topic, long records, Duration timeout)
			throws InterruptedException {
		List<TopicPartition> partitions = partitions(topic);
		try (KafkaConsumer<String, String> offsets = new KafkaConsumer<>(consumerConfig(bootstrapServers))) {
			long deadline = System.nanoTime() + timeout.toNanos();
			long nextReport = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
			long first = 0;
			long published = 0;
			while (published < records) {
				if (System.nanoTime() > deadline) {
					throw new IllegalStateException("only " + published + " of " + records + " records arrived");
				}
				if (System.nanoTime() > nextReport) {
					System.out.printf("  %,d of %,d%n", published, records);
					nextReport += TimeUnit.SECONDS.toNanos(5);
				}
				// every 50 ms: a finer clock costs the drain CPU on the same two cores,
				// and a drain takes over 10 s
				Thread.sleep(50);
				published = offsets.endOffsets(partitions).values().stream().mapToLong(Long::longValue).sum();
				if (first == 0 && published > 0) {
					first = System.nanoTime();
				}
			}
			return new Drain(records, (System.nanoTime() - first) / 1e9);
		}
	}

	/**
	 * Reads a topic from its end at construction, noting when each event id first
	 * arrives.
	 */
	static final class Arrivals implements AutoCloseable {

		final Map<String, Long> arrivals = new ConcurrentHashMap<>();

		private volatile boolean running = true;

		private final Thread poller;

		private final CountDownLatch positioned = new CountDownLatch(1);

		Arrivals(String bootstrapServers, String topic) throws InterruptedException {
			this.poller = Thread.ofPlatform().daemon().start(() -> poll(bootstrapServers, topic));
			if (!this.positioned.await(30, TimeUnit.SECONDS)) {
				throw new IllegalStateException("the consumer of " + topic + " found no end offsets in 30 s");
			}
		}

		private void poll(String bootstrapServers, String topic) {
			Map<String, Object> config = consumerConfig(bootstrapServers);
			config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
			config.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10);
			try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
				List<TopicPartition> partitions = partitions(topic);
				consumer.assign(partitions);
				consumer.seekToEnd(partitions);
				for (TopicPartition partition : partitions) {
					// seekToEnd is lazy: this fixes the position before any run writes
					consumer.position(partition);
				}
				this.positioned.countDown();
				while (this.running) {
					for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(50))) {
						long now = System.nanoTime();
						Header eventId = record.headers().lastHeader("event_id");
						if (eventId != null) {
							this.arrivals.putIfAbsent(new String(eventId.value(), StandardCharsets.UTF_8), now);
						}
					}
				}
			}
		}

		@Override
		public void close() throws InterruptedException {
			this.running = false;
			this.poller.join(5000);
		}

	}

}
