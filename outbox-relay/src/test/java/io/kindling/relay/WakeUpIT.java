package io.kindling.relay;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import io.kindling.infra.servers.FreePorts;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.RealServersExtension;
import io.kindling.outbox.OutboxWakeUp;
import io.kindling.outbox.OutboxWriter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A relay whose probe runs only every ten minutes still publishes every event at once
 * when the writer rings it after commit: an event that came in the test's time could only
 * have come by its ring, so a lost ring fails the test however slow the machine is, and
 * no latency bound has to be guessed.
 */
@RealServers(value = { Server.MARIADB, Server.KAFKA }, database = "relay_wake_up")
@SpringBootTest
class WakeUpIT {

	static final Duration POLL = Duration.ofMinutes(10);

	static OutboxDatabase matches;

	static OutboxDatabase rooms;

	static TopicReader topic;

	static int wakeUpPort;

	@DynamicPropertySource
	static void sources(DynamicPropertyRegistry registry) {
		matches = new OutboxDatabase("relay_wake_up_swipe", "match_outbox");
		rooms = new OutboxDatabase("relay_wake_up_matching", "room_outbox");
		topic = new TopicReader(RealServersExtension.kafka().bootstrapServers(), "wake.matches");
		wakeUpPort = FreePorts.pick();
		registry.add("kindling.relay.sources[0].name", () -> "matches");
		registry.add("kindling.relay.sources[0].url", matches::jdbcUrl);
		registry.add("kindling.relay.sources[0].table", () -> "match_outbox");
		registry.add("kindling.relay.sources[0].topic", () -> "wake.matches");
		registry.add("kindling.relay.sources[1].name", () -> "rooms");
		registry.add("kindling.relay.sources[1].url", rooms::jdbcUrl);
		registry.add("kindling.relay.sources[1].table", () -> "room_outbox");
		registry.add("kindling.relay.sources[1].topic", () -> "wake.rooms");
		registry.add("kindling.relay.polling.min-interval", () -> POLL.toMillis() + "ms");
		registry.add("kindling.relay.polling.max-interval", () -> POLL.toMillis() + "ms");
		registry.add("kindling.relay.wake-up-port", () -> String.valueOf(wakeUpPort));
		registry.add("server.port", () -> "0");
	}

	@AfterAll
	static void close() throws InterruptedException {
		topic.close();
		matches.close();
		rooms.close();
	}

	@Test
	void aWriterThatRingsAfterCommitIsPublishedWithoutWaitingForThePoll() throws Exception {
		OutboxWriter ringing = new OutboxWriter(matches.jdbc, "match_outbox",
				OutboxWakeUp.udp(List.of(new InetSocketAddress("127.0.0.1", wakeUpPort))));
		// The first event also creates the producer and the topic's metadata.
		String first = UUID.randomUUID().toString();
		matches.transactions
			.executeWithoutResult((status) -> ringing.append(OutboxDatabase.event(first, "wake:first", "")));
		org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> topic.eventIds().contains(first));
		// Twenty in a row: a ring lost to a worker that had just found nothing shows
		// up as one of them waiting for the probe, ten minutes away.
		for (int i = 0; i < 20; i++) {
			String eventId = UUID.randomUUID().toString();
			String key = "wake:" + i;
			matches.transactions
				.executeWithoutResult((status) -> ringing.append(OutboxDatabase.event(eventId, key, "")));
			org.awaitility.Awaitility.await()
				.alias("event " + i + ", published by its ring alone")
				.atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(5))
				.until(() -> topic.eventIds().contains(eventId));
		}
	}

}
