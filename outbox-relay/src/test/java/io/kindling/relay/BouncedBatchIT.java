package io.kindling.relay;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.RealServersExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What made the Kafka-outage test fail at random, made certain: the broker bounces a
 * claim's first batch with a retriable error (as a restarting broker answered
 * {@code NOT_LEADER_OR_FOLLOWER} while it took up its partitions) and the relay's next
 * batch for that partition arrives before the bounce is answered. The broker holds no
 * state for this relay's producer on that partition (a fresh producer and topic), so it
 * would append that next batch first. With one request in flight the producer never sends
 * it before the first is acked, and the key's events arrive in commit order; with five in
 * flight (as before) this fails.
 */
@RealServers(value = { Server.MARIADB, Server.KAFKA }, database = "relay_bounce")
@SpringBootTest
class BouncedBatchIT {

	static final String TOPIC = "bounce.matches";

	static KafkaGate gate;

	static OutboxDatabase matches;

	static TopicReader topic;

	@DynamicPropertySource
	static void sources(DynamicPropertyRegistry registry) {
		gate = new KafkaGate(RealServersExtension.kafka().port());
		matches = new OutboxDatabase("relay_bounce_swipe", "match_outbox");
		topic = new TopicReader(RealServersExtension.kafka().bootstrapServers(), TOPIC);
		registry.add("spring.kafka.bootstrap-servers", gate::bootstrapServers);
		registry.add("kindling.relay.sources[0].name", () -> "matches");
		registry.add("kindling.relay.sources[0].url", matches::jdbcUrl);
		registry.add("kindling.relay.sources[0].table", () -> "match_outbox");
		registry.add("kindling.relay.sources[0].topic", () -> TOPIC);
		registry.add("kindling.relay.ack-timeout", () -> "3s");
		registry.add("kindling.relay.wake-up-port", () -> "0");
		registry.add("server.port", () -> "0");
	}

	@AfterAll
	static void close() throws Exception {
		topic.close();
		matches.close();
		gate.close();
	}

	@Test
	void aBouncedFirstBatchIsNotOvertakenByTheNextBatchOfItsPartition() {
		gate.bounceNextProduce(TOPIC, Duration.ofSeconds(2));
		// One key, so one partition; rows large enough that one claim's records fill
		// several producer batches (256 KiB each).
		String key = "bounce:" + UUID.randomUUID();
		String padding = ",\"padding\":\"" + "x".repeat(400) + "\"";
		List<String> written = new ArrayList<>();
		matches.transactions.executeWithoutResult((status) -> {
			for (int i = 0; i < 3_000; i++) {
				String eventId = UUID.randomUUID().toString();
				matches.writer.append(OutboxDatabase.event(eventId, key, ",\"seq\":" + i + padding));
				written.add(eventId);
			}
		});

		await().atMost(Duration.ofSeconds(90))
			.pollInterval(Duration.ofMillis(500))
			.until(() -> topic.eventIds().containsAll(written));
		assertThat(gate.bounced()).as("produce requests the broker bounced").isOne();
		assertThat(topic.firstOccurrencesByKey().get(key)).as("events of %s in commit order", key)
			.containsExactlyElementsOf(written);
	}

}
