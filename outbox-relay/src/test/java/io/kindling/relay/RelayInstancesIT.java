package io.kindling.relay;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.RealServersExtension;
import io.kindling.outbox.OutboxEvent;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer.OrderAnnotation;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two relays as separate processes on the same outbox table: per-key order between them,
 * and nothing lost when one is killed with SIGKILL in the middle of its batches.
 */
@RealServers(value = { Server.MARIADB, Server.KAFKA }, database = "relay_instances")
@TestMethodOrder(OrderAnnotation.class)
class RelayInstancesIT {

	static OutboxDatabase matches;

	static OutboxDatabase rooms;

	static TopicReader topic;

	static RelayProcess first;

	static RelayProcess second;

	/**
	 * Between the relay the kill test kills and MariaDB: lets it hold that relay
	 * mid-batch.
	 */
	static DatabaseGate gate;

	static Map<String, String> settings;

	@BeforeAll
	static void startTwoRelays() {
		matches = new OutboxDatabase("relay_instances_swipe", "match_outbox");
		rooms = new OutboxDatabase("relay_instances_matching", "room_outbox");
		String kafka = RealServersExtension.kafka().bootstrapServers();
		topic = new TopicReader(kafka, "instances.matches");
		settings = new LinkedHashMap<>();
		settings.put("spring.kafka.bootstrap-servers", kafka);
		settings.put("kindling.relay.sources[0].name", "matches");
		settings.put("kindling.relay.sources[0].url", matches.jdbcUrl());
		settings.put("kindling.relay.sources[0].table", "match_outbox");
		settings.put("kindling.relay.sources[0].topic", "instances.matches");
		settings.put("kindling.relay.sources[1].name", "rooms");
		settings.put("kindling.relay.sources[1].url", rooms.jdbcUrl());
		settings.put("kindling.relay.sources[1].table", "room_outbox");
		settings.put("kindling.relay.sources[1].topic", "instances.rooms");
		gate = new DatabaseGate(RealServersExtension.mariaDb().port());
		first = new RelayProcess("first", settings);
		second = new RelayProcess("second", settings);
		first.awaitHealthy();
		second.awaitHealthy();
	}

	@AfterAll
	static void stop() throws InterruptedException {
		first.close();
		second.close();
		gate.close();
		topic.close();
		matches.close();
		rooms.close();
	}

	/**
	 * Holds the first relay's statements to MariaDB and looks a second later for events
	 * on Kafka whose rows are still unpublished. Held between a claim and its mark, the
	 * relay has sent the claimed rows and waits at the gate to mark them; with no other
	 * relay running, what the look finds is that batch. Leaves the gate held and answers
	 * true; else releases it.
	 */
	static boolean heldInTheMiddleOfABatch() throws InterruptedException {
		gate.hold();
		Thread.sleep(1000);
		Set<String> unpublished = sentButUnpublished();
		if (!unpublished.isEmpty()) {
			System.out.println("kill -9 with " + unpublished.size() + " events of its batch already on Kafka");
			return true;
		}
		gate.release();
		return false;
	}

	/** The relays' settings with the matches source reached through this gate. */
	static Map<String, String> through(DatabaseGate gate) {
		Map<String, String> gated = new LinkedHashMap<>(settings);
		gated.put("kindling.relay.sources[0].url", gate.jdbcUrl(matches.jdbcUrl()));
		return gated;
	}

	static Set<String> sentButUnpublished() {
		Set<String> unpublished = new HashSet<>(matches.jdbc
			.sql("SELECT event_id FROM match_outbox WHERE published_at IS NULL AND event_key LIKE 'crash:%'")
			.query(String.class)
			.list());
		unpublished.retainAll(topic.eventIds());
		return unpublished;
	}

	@Test
	@Order(1)
	void twoRelaysPublishOneHundredKeysTimesFiftyEventsWithEachKeysOffsetsInCommitOrder() throws Exception {
		Map<String, List<String>> committed = new ConcurrentHashMap<>();
		ExecutorService writers = Executors.newFixedThreadPool(10);
		List<Future<?>> done = new ArrayList<>();
		for (int writer = 0; writer < 10; writer++) {
			int firstKey = writer * 10;
			done.add(writers.submit(() -> {
				for (int seq = 0; seq < 50; seq++) {
					for (int k = firstKey; k < firstKey + 10; k++) {
						String key = "order:" + k;
						// The order of commits per key is the order of this list.
						committed.computeIfAbsent(key, (any) -> new ArrayList<>())
							.add(matches.write(key, ",\"seq\":" + seq));
					}
				}
				return null;
			}));
		}
		for (Future<?> writer : done) {
			writer.get();
		}
		writers.shutdown();
		Set<String> all = committed.values().stream().flatMap(List::stream).collect(Collectors.toSet());
		assertThat(all).hasSize(5_000);

		await().atMost(Duration.ofSeconds(60)).until(() -> topic.eventIds().containsAll(all));

		Map<String, List<String>> arrived = topic.firstOccurrencesByKey();
		for (Map.Entry<String, List<String>> key : committed.entrySet()) {
			assertThat(arrived.get(key.getKey())).as("offsets of %s follow its commits", key.getKey())
				.containsExactlyElementsOf(key.getValue());
		}
		System.out.println("published by the first relay " + first.published("matches") + ", by the second "
				+ second.published("matches"));
		// each claim takes a random half of a worker's block, so neither relay can hold
		// every partition from one claim to the next
		assertThat(first.published("matches")).as("the first relay's share").isGreaterThan(1_000);
		assertThat(second.published("matches")).as("the second relay's share").isGreaterThan(1_000);
	}

	@Test
	@Order(2)
	void killingARelayWithSigkillMidBatchLosesNothingAndOnlyRepeatsEventIds() throws Exception {
		int keys = 200;
		int mostPerKey = 500;
		Map<String, List<String>> committed = new HashMap<>();
		AtomicBoolean killed = new AtomicBoolean();
		// The relay to kill reaches MariaDB through the gate, and runs alone while it is
		// held: under a steady stream of rows one busy relay can keep every partition to
		// itself, and a batch found sent and unmarked must be the held relay's. The
		// second relay starts again before the kill. Both stop as relays stop (finishing
		// their batches).
		first.close();
		second.close();
		first = new RelayProcess("first-gated", through(gate));
		first.awaitHealthy();
		Set<String> before = topic.eventIds();
		Thread writer = Thread.ofPlatform().start(() -> {
			// Transactions of 1,000 rows until the relay is killed (at most 100,000
			// rows), so that a quick relay never runs out of batches to be caught in.
			for (int seq = 0; seq < mostPerKey && !killed.get(); seq += 5) {
				int from = seq;
				matches.transactions.executeWithoutResult((status) -> {
					for (int s = from; s < from + 5; s++) {
						for (int k = 0; k < keys; k++) {
							String key = "crash:" + k;
							String eventId = UUID.randomUUID().toString();
							OutboxEvent event = OutboxDatabase.event(eventId, key, ",\"seq\":" + s);
							matches.writer.append(event);
							synchronized (committed) {
								committed.computeIfAbsent(key, (any) -> new ArrayList<>()).add(eventId);
							}
						}
					}
				});
			}
		});
		await().atMost(Duration.ofSeconds(60)).until(() -> topic.eventIds().size() - before.size() >= 3_000);
		// Kill it in a claim transaction whose records are already on Kafka (rows locked,
		// sent, not marked published). Each try holds it at a different moment of its
		// work; a hold before a claim or between batches catches nothing and is let go.
		boolean caughtMidBatch = false;
		int tries = 0;
		while (tries < 30 && !caughtMidBatch) {
			tries++;
			caughtMidBatch = heldInTheMiddleOfABatch();
			if (!caughtMidBatch) {
				Thread.sleep(ThreadLocalRandom.current().nextLong(5, 60));
			}
		}
		System.out.println("held mid-batch at try " + tries);
		assertThat(caughtMidBatch).as("held the first relay with a sent batch not yet marked").isTrue();
		second = new RelayProcess("second-again", settings);
		second.awaitHealthy();
		first.kill();
		// its sessions end as a dead process's would: MariaDB rolls back the claim
		gate.close();
		killed.set(true);
		writer.join();
		Set<String> all = committed.values().stream().flatMap(List::stream).collect(Collectors.toSet());
		assertThat(all).hasSizeGreaterThanOrEqualTo(3_000)
			.hasSize(committed.values().stream().mapToInt(List::size).sum());

		// Every row marked published, so the killed relay's batch has been sent again
		// (its first copies alone would already satisfy containsAll), and read.
		await().atMost(Duration.ofSeconds(90))
			.until(() -> topic.eventIds().containsAll(all) && matches.jdbc
				.sql("SELECT COUNT(*) FROM match_outbox WHERE published_at IS NULL AND event_key LIKE 'crash:%'")
				.query(Long.class)
				.single() == 0);
		await().atMost(Duration.ofSeconds(30)).until(topic::hasReadToTheEnd);

		Map<String, List<String>> arrived = topic.firstOccurrencesByKey();
		for (Map.Entry<String, List<String>> key : committed.entrySet()) {
			assertThat(arrived.get(key.getKey())).as("events of %s in commit order", key.getKey())
				.containsExactlyElementsOf(key.getValue());
		}
		// A duplicate is the same event again: same id, same key, same value.
		Map<String, ConsumerRecord<String, String>> firstSeen = new HashMap<>();
		int duplicates = 0;
		for (ConsumerRecord<String, String> record : topic.records()) {
			String eventId = TopicReader.header(record, "event_id");
			ConsumerRecord<String, String> earlier = firstSeen.putIfAbsent(eventId, record);
			if (earlier != null && all.contains(eventId)) {
				duplicates++;
				assertThat(record.key()).isEqualTo(earlier.key());
				assertThat(record.value()).isEqualTo(earlier.value());
			}
		}
		System.out.println("kill -9 mid-batch: " + all.size() + " events, " + duplicates + " repeated");
		assertThat(duplicates).as("the killed relay's sent batch came again").isPositive();
		assertThat(second.published("matches")).isPositive();
	}

}
