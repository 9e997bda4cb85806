package io.kindling.relay;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import io.kindling.infra.kafka.KafkaCluster;
import io.kindling.infra.servers.FreePorts;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.RealServersExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The relay, as its own process, publishing to a three-broker KRaft cluster whose topics
 * it creates with three replicas: what a broker's death costs.
 *
 * <p>
 * The order a consumer may count on, with at-least-once delivery: per key, the first copy
 * of each event comes in outbox order and none is missing. A copy can come again (the
 * relay re-sends rows whose acks did not come in its {@code ack-timeout}), and then it is
 * a copy of an event already delivered, with its successors possibly repeated after it:
 * {@code 1 2 3 4 2 3 4 5}, never {@code 1 3 2}. Repeats need not be adjacent, so a
 * consumer that drops only a record equal to the one before it is not enough; one that
 * skips event ids it has seen sees each key's events exactly in outbox order.
 */
@RealServers(value = { Server.MARIADB, Server.KAFKA_CLUSTER }, database = "relay_replicated")
class ReplicatedKafkaIT {

	@BeforeEach
	void everyNodeRunningAndInSync() {
		cluster().start();
		cluster().awaitFullyReplicated(Duration.ofSeconds(60));
	}

	@Test
	void tenThousandEventsOverOneHundredKeysArriveInEachKeysOrderWhenTheBrokerLeadingMostPartitionsIsKilled()
			throws Exception {
		long began = System.nanoTime();
		String topic = "replicated.matches";
		try (OutboxDatabase outbox = new OutboxDatabase("relay_replicated_swipe", "match_outbox");
				// the relay's own defaults for everything that matters here: ack-timeout
				// 10 s, and the producer settings forced in code
				RelayProcess relay = new RelayProcess("replicated", settings(outbox, topic, 3, 2, Map.of()))) {
			relay.awaitHealthy();
			assertCreatedByTheRelay(topic, 12, 3, "2");

			Map<String, List<String>> committed = new LinkedHashMap<>();
			AtomicInteger written = new AtomicInteger();
			// 100 transactions of one event per key, about 8 a second: the relay has
			// work before, during and after the kill
			Thread writer = Thread.ofPlatform()
				.name("outbox-writer")
				.start(() -> write(outbox, "replicated:", 100, 100, Duration.ofMillis(120), committed, written));

			await().atMost(Duration.ofSeconds(60)).until(() -> published(outbox) >= 3_000);
			Map<Integer, Integer> leadersBefore = cluster().leaders(topic);
			int victim = leaderOfMostPartitions(leadersBefore);
			long pid = cluster().node(victim).pid();
			int writtenAtKill = written.get();
			long publishedAtKill = published(outbox);
			long killedAt = System.nanoTime();
			cluster().kill(victim);

			// It died, and the controller moved every partition it led to a survivor.
			assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).as("node %d's process", victim).isEmpty();
			assertThat(FreePorts.isOpen(cluster().node(victim).port())).isFalse();
			Set<Integer> survivors = survivors(victim);
			cluster().awaitBrokers(survivors, Duration.ofSeconds(30));
			await().atMost(Duration.ofSeconds(30))
				.until(() -> survivors.containsAll(cluster().leaders(topic).values()));
			long leadersMovedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
			Map<Integer, Integer> leadersAfter = cluster().leaders(topic);
			List<Integer> moved = leadersBefore.entrySet()
				.stream()
				.filter((led) -> led.getValue() == victim)
				.map(Map.Entry::getKey)
				.toList();
			assertThat(moved).as("partitions node %d led", victim).hasSizeGreaterThanOrEqualTo(4);
			moved.forEach((partition) -> assertThat(leadersAfter.get(partition)).isIn(survivors));
			assertThat(cluster().describe(topic).partitions())
				.allSatisfy((partition) -> assertThat(partition.isr()).extracting(Node::id)
					.containsExactlyInAnyOrderElementsOf(survivors));

			writer.join();
			assertThat(writtenAtKill).as("events committed when the broker died").isBetween(1, 9_999);
			await().atMost(Duration.ofSeconds(90)).until(() -> published(outbox) == 10_000);
			assertThat(cluster().liveBrokers()).as("published with node %d dead", victim).isEqualTo(survivors);

			Delivery delivery = Delivery.of(committed, readAll(topic));
			delivery.assertEveryEventInEachKeysOrder(10_000);
			System.out.printf(Locale.ROOT,
					"replicated Kafka: 10,000 events over 100 keys; node %d (leader of %d of 12 partitions) killed after"
							+ " %,d written and %,d published; leaders moved %,d ms after the kill; %s;"
							+ " %.0f records the relay left for a second claim (ack-timeout); %.1f s%n",
					victim, moved.size(), writtenAtKill, publishedAtKill, leadersMovedMillis, delivery,
					relay.metric("kindling_relay_send_failures_total", "kind=\"unavailable\""),
					(System.nanoTime() - began) / 1e9);
		}
	}

	@Test
	void withFewerReplicasInSyncThanMinInsyncReplicasNothingIsAcknowledgedAndEverythingIsPublishedOnceOneReturns()
			throws Exception {
		long began = System.nanoTime();
		String topic = "strict.matches";
		// every replica must have a record before Kafka acks it: one node down is
		// already too few
		try (OutboxDatabase outbox = new OutboxDatabase("relay_replicated_strict", "match_outbox");
				RelayProcess relay = new RelayProcess("strict",
						settings(outbox, topic, 3, 3, Map.of("kindling.relay.ack-timeout", "2s")))) {
			relay.awaitHealthy();
			assertCreatedByTheRelay(topic, 12, 3, "3");
			Map<String, List<String>> committed = new LinkedHashMap<>();
			AtomicInteger written = new AtomicInteger();
			write(outbox, "strict:", 10, 10, Duration.ZERO, committed, written);
			await().atMost(Duration.ofSeconds(30)).until(() -> published(outbox) == 100);

			int victim = 3;
			long pid = cluster().node(victim).pid();
			cluster().kill(victim);
			assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();
			cluster().awaitBrokers(survivors(victim), Duration.ofSeconds(30));
			await().atMost(Duration.ofSeconds(30))
				.until(() -> cluster().describe(topic).partitions().stream().allMatch((p) -> p.isr().size() == 2));
			double notAckedBefore = relay.metric("kindling_relay_send_failures_total", "kind=\"unavailable\"");
			Set<String> acknowledgedBefore = Set.copyOf(eventIds(committed));
			write(outbox, "strict:", 10, 10, Duration.ZERO, committed, written);

			// Every new row was sent and waited a whole ack-timeout in vain...
			await().atMost(Duration.ofSeconds(30))
				.until(() -> relay.metric("kindling_relay_send_failures_total",
						"kind=\"unavailable\"") >= notAckedBefore + 100);
			// ...because Kafka refused to append it with 2 of 3 in sync, and the producer
			// retried it...
			assertThat(Files.readString(Path.of("target", "relay-strict.log"))).contains("NOT_ENOUGH_REPLICAS");
			// ...and none is marked published. (The topic cannot even be read to its end
			// now: Kafka does not advance a partition's high watermark while fewer
			// replicas than min.insync.replicas are in sync.)
			assertThat(published(outbox)).isEqualTo(100);
			assertThat(outbox.jdbc.sql("SELECT event_id FROM match_outbox WHERE published_at IS NOT NULL")
				.query(String.class)
				.list()).hasSameElementsAs(acknowledgedBefore);

			cluster().restart(victim);
			await().atMost(Duration.ofSeconds(60)).until(() -> published(outbox) == 200);

			Delivery delivery = Delivery.of(committed, readAll(topic));
			delivery.assertEveryEventInEachKeysOrder(200);
			System.out.printf(Locale.ROOT, "min.insync.replicas 3 with 2 in sync: 100 events waited, then %s; %.1f s%n",
					delivery, (System.nanoTime() - began) / 1e9);
		}
	}

	/**
	 * The relay's settings: one source, its topic created with these replicas, and
	 * anything else given.
	 */
	private static Map<String, String> settings(OutboxDatabase outbox, String topic, int replicationFactor,
			int minInsyncReplicas, Map<String, String> more) {
		Map<String, String> settings = new LinkedHashMap<>();
		settings.put("spring.kafka.bootstrap-servers", cluster().bootstrapServers());
		settings.put("kindling.relay.sources[0].name", "matches");
		settings.put("kindling.relay.sources[0].url", outbox.jdbcUrl());
		settings.put("kindling.relay.sources[0].table", outbox.table);
		settings.put("kindling.relay.sources[0].topic", topic);
		settings.put("kindling.relay.topics.partitions", "12");
		settings.put("kindling.relay.topics.replication-factor", String.valueOf(replicationFactor));
		settings.put("kindling.relay.topics.min-insync-replicas", String.valueOf(minInsyncReplicas));
		settings.putAll(more);
		return settings;
	}

	/**
	 * The topic was made by the relay (the cluster creates none by itself) as its
	 * settings say, and every replica is in sync.
	 */
	private static void assertCreatedByTheRelay(String topic, int partitions, int replicas, String minInsync)
			throws Exception {
		TopicDescription description = cluster().describe(topic);
		assertThat(description.partitions()).hasSize(partitions)
			.allSatisfy((partition) -> assertThat(partition.replicas()).hasSize(replicas));
		ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
		try (Admin admin = cluster().admin()) {
			ConfigEntry entry = admin.describeConfigs(List.of(resource))
				.all()
				.get(10, TimeUnit.SECONDS)
				.get(resource)
				.get("min.insync.replicas");
			assertThat(entry.value()).isEqualTo(minInsync);
			assertThat(entry.source()).isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG);
		}
		await().atMost(Duration.ofSeconds(30))
			.until(() -> cluster().describe(topic)
				.partitions()
				.stream()
				.allMatch((partition) -> partition.isr().size() == replicas));
	}

	/**
	 * Commits {@code transactions} transactions of one event for each of {@code keys}
	 * keys, one writer as a service's writers of one key are serialised, and records each
	 * key's events in commit order once committed.
	 */
	private static void write(OutboxDatabase outbox, String keyPrefix, int transactions, int keys, Duration pause,
			Map<String, List<String>> committed, AtomicInteger written) {
		for (int seq = 0; seq < transactions; seq++) {
			Map<String, String> events = new LinkedHashMap<>();
			int s = seq;
			outbox.transactions.executeWithoutResult((status) -> {
				for (int k = 0; k < keys; k++) {
					String key = keyPrefix + k;
					String eventId = UUID.randomUUID().toString();
					outbox.writer.append(OutboxDatabase.event(eventId, key, ",\"seq\":" + s));
					events.put(eventId, key);
				}
			});
			synchronized (committed) {
				events
					.forEach((eventId, key) -> committed.computeIfAbsent(key, (any) -> new ArrayList<>()).add(eventId));
			}
			written.addAndGet(events.size());
			if (!pause.isZero()) {
				try {
					Thread.sleep(pause);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					return;
				}
			}
		}
	}

	private static long published(OutboxDatabase outbox) {
		return outbox.jdbc.sql("SELECT COUNT(*) FROM " + outbox.table + " WHERE published_at IS NOT NULL")
			.query(Long.class)
			.single();
	}

	private static int leaderOfMostPartitions(Map<Integer, Integer> leaders) {
		Map<Integer, Long> led = leaders.values()
			.stream()
			.collect(Collectors.groupingBy((node) -> node, Collectors.counting()));
		return led.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
	}

	private static Set<Integer> survivors(int victim) {
		Set<Integer> survivors = cluster().nodes()
			.stream()
			.map((node) -> node.nodeId())
			.collect(Collectors.toCollection(TreeSet::new));
		survivors.remove(victim);
		return survivors;
	}

	private static List<String> eventIds(Map<String, List<String>> committed) {
		synchronized (committed) {
			return committed.values().stream().flatMap(List::stream).toList();
		}
	}

	/**
	 * Everything on the topic up to its end, read with Kafka's own consumer: each
	 * partition in offset order.
	 */
	private static List<ConsumerRecord<String, String>> readAll(String topic) {
		try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(
				Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster().bootstrapServers(),
						ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
						ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
						ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000))) {
			List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(10))
				.stream()
				.map((info) -> new TopicPartition(topic, info.partition()))
				.toList();
			consumer.assign(partitions);
			consumer.seekToBeginning(partitions);
			Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, Duration.ofSeconds(10));
			List<ConsumerRecord<String, String>> records = new ArrayList<>();
			long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
			while (partitions.stream().anyMatch((p) -> consumer.position(p, Duration.ofSeconds(10)) < ends.get(p))) {
				assertThat(System.nanoTime()).as("read %s to its end in 60 s", topic).isLessThan(deadline);
				consumer.poll(Duration.ofMillis(200)).forEach(records::add);
			}
			return records;
		}
	}

	static String header(ConsumerRecord<String, String> record, String name) {
		return TopicReader.header(record, name);
	}

	private static KafkaCluster cluster() {
		return RealServersExtension.kafkaCluster();
	}

	/**
	 * What a consumer read, against what was committed: per key, the records in offset
	 * order as positions in the key's commit order.
	 */
	record Delivery(Map<String, List<String>> committed, Map<String, List<Integer>> positions, int records,
			int duplicates, int adjacentDuplicates, int rewinds, int longestRewind) {

		static Delivery of(Map<String, List<String>> committed, List<ConsumerRecord<String, String>> read) {
			Map<String, Integer> positionOf = new HashMap<>();
			Map<String, String> keyOf = new HashMap<>();
			committed.forEach((key, ids) -> {
				for (int i = 0; i < ids.size(); i++) {
					positionOf.put(ids.get(i), i);
					keyOf.put(ids.get(i), key);
				}
			});
			Map<String, List<Integer>> positions = new LinkedHashMap<>();
			Map<String, Set<Integer>> partitionsOfKey = new HashMap<>();
			for (ConsumerRecord<String, String> record : read) {
				String eventId = header(record, "event_id");
				assertThat(keyOf).as("an event that was committed").containsKey(eventId);
				assertThat(record.key()).as("the record key of %s", eventId).isEqualTo(keyOf.get(eventId));
				positions.computeIfAbsent(record.key(), (key) -> new ArrayList<>()).add(positionOf.get(eventId));
				partitionsOfKey.computeIfAbsent(record.key(), (key) -> new HashSet<>()).add(record.partition());
			}
			partitionsOfKey.forEach((key, partitions) -> assertThat(partitions).as("partitions of %s", key).hasSize(1));
			int duplicates = 0;
			int adjacent = 0;
			int rewinds = 0;
			int longestRewind = 0;
			for (List<Integer> sequence : positions.values()) {
				int furthest = -1;
				int previous = -1;
				for (int position : sequence) {
					if (position <= furthest) {
						duplicates++;
						if (position == previous) {
							adjacent++;
						}
						else if (position != previous + 1) {
							// back to an earlier event instead of on from the last one
							rewinds++;
							longestRewind = Math.max(longestRewind, furthest - position + 1);
						}
					}
					furthest = Math.max(furthest, position);
					previous = position;
				}
			}
			return new Delivery(committed, positions, read.size(), duplicates, adjacent, rewinds, longestRewind);
		}

		/**
		 * Every committed event is there, and per key the first copies are exactly the
		 * commit order: a copy is only ever of an event already delivered.
		 */
		void assertEveryEventInEachKeysOrder(int events) {
			assertThat(this.committed.values().stream().mapToInt(List::size).sum()).isEqualTo(events);
			this.committed.forEach((key, ids) -> {
				List<Integer> firstCopies = new ArrayList<>();
				Set<Integer> seen = new HashSet<>();
				for (int position : this.positions.getOrDefault(key, List.of())) {
					if (seen.add(position)) {
						firstCopies.add(position);
					}
				}
				List<Integer> commitOrder = java.util.stream.IntStream.range(0, ids.size()).boxed().toList();
				assertThat(firstCopies).as("first copies of %s's events, as positions in its commit order", key)
					.isEqualTo(commitOrder);
			});
			assertThat(this.records).isEqualTo(events + this.duplicates);
		}

		@Override
		public String toString() {
			return String.format(Locale.ROOT,
					"%,d records, %,d of them repeats (%,d right after their first copy, %,d rewinds of up to %,d events)",
					this.records, this.duplicates, this.adjacentDuplicates, this.rewinds, this.longestRewind);
		}

	}

}
