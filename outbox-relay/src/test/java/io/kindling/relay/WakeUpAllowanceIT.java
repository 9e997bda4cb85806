package io.kindling.relay;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;

import io.kindling.infra.servers.FreePorts;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.RealServersExtension;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The wake-up port believes a datagram only so far: one naming a table this relay does
 * not publish wakes nothing, and a flood of them naming its table makes the workers claim
 * no more than {@code wake-ups-per-second} allows. The probe runs once a minute here, so
 * every claim counted comes from a wake-up.
 */
@RealServers(value = { Server.MARIADB, Server.KAFKA }, database = "relay_wake_up_allowance")
@SpringBootTest
class WakeUpAllowanceIT {

	static final int PER_SECOND = 10;

	static final int WORKERS = 2;

	static OutboxDatabase matches;

	static OutboxDatabase rooms;

	static int wakeUpPort;

	@Autowired
	MeterRegistry meters;

	@Autowired
	Clock clock;

	@DynamicPropertySource
	static void sources(DynamicPropertyRegistry registry) {
		matches = new OutboxDatabase("relay_allowance_swipe", "match_outbox");
		rooms = new OutboxDatabase("relay_allowance_matching", "room_outbox");
		wakeUpPort = FreePorts.pick();
		registry.add("kindling.relay.sources[0].name", () -> "matches");
		registry.add("kindling.relay.sources[0].url", matches::jdbcUrl);
		registry.add("kindling.relay.sources[0].table", () -> "match_outbox");
		registry.add("kindling.relay.sources[0].topic", () -> "allowance.matches");
		registry.add("kindling.relay.sources[1].name", () -> "rooms");
		registry.add("kindling.relay.sources[1].url", rooms::jdbcUrl);
		registry.add("kindling.relay.sources[1].table", () -> "room_outbox");
		registry.add("kindling.relay.sources[1].topic", () -> "allowance.rooms");
		registry.add("kindling.relay.polling.min-interval", () -> "1m");
		registry.add("kindling.relay.polling.max-interval", () -> "1m");
		registry.add("kindling.relay.workers-per-source", () -> String.valueOf(WORKERS));
		registry.add("kindling.relay.wake-ups-per-second", () -> String.valueOf(PER_SECOND));
		registry.add("kindling.relay.wake-up-port", () -> String.valueOf(wakeUpPort));
		registry.add("kindling.bind-address", () -> "127.0.0.1");
		registry.add("spring.kafka.bootstrap-servers", () -> RealServersExtension.kafka().bootstrapServers());
		registry.add("server.port", () -> "0");
	}

	@AfterAll
	static void close() {
		matches.close();
		rooms.close();
	}

	@Test
	void aDatagramNamingAnotherTableWakesNothingAndAFloodClaimsNoMoreThanTheAllowance() throws Exception {
		// Each worker's first claim at start-up: on an empty table, one claim of each
		// half of its block.
		await().atMost(Duration.ofSeconds(30))
			.until(() -> claims("matches") == WORKERS * 2 && claims("rooms") == WORKERS * 2);
		double matchesBefore = claims("matches");
		double roomsBefore = claims("rooms");
		double unknownBefore = wakeUps("unknown_table");

		try (DatagramChannel socket = DatagramChannel.open()) {
			InetSocketAddress relay = new InetSocketAddress("127.0.0.1", wakeUpPort);
			for (int i = 0; i < 1_000; i++) {
				send(socket, relay, (i % 2 == 0) ? "no_such_table" : "match_outbox; DROP TABLE match_outbox");
			}
			await().atMost(Duration.ofSeconds(20)).until(() -> wakeUps("unknown_table") > unknownBefore);
			// datagrams from one socket over loopback arrive in order: once a later one
			// is counted, every earlier one that arrived is
			double strangers = wakeUps("unknown_table");
			await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).until(() -> {
				send(socket, relay, "end_of_strangers");
				return wakeUps("unknown_table") > strangers;
			});
			assertThat(wakeUps("unknown_table") - unknownBefore).as("datagrams naming no table of this relay")
				.isGreaterThan(1);
			assertThat(claims("matches")).as("claims of matches after them").isEqualTo(matchesBefore);
			assertThat(claims("rooms")).as("claims of rooms after them").isEqualTo(roomsBefore);

			double takenBefore = wakeUps("taken");
			double overBefore = wakeUps("over_rate");
			double strangersCounted = wakeUps("unknown_table");
			long firstSecond = this.clock.millis() / 1000;
			for (int i = 0; i < 5_000; i++) {
				send(socket, relay, "match_outbox");
			}
			// the flood fills the socket's receive buffer, so the end may be dropped too:
			// sent again until it is counted
			await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).until(() -> {
				send(socket, relay, "end_of_flood");
				return wakeUps("unknown_table") > strangersCounted;
			});
			long lastSecond = this.clock.millis() / 1000;
			await().atMost(Duration.ofSeconds(20)).until(() -> claims("matches") > matchesBefore);

			double taken = wakeUps("taken") - takenBefore;
			double dropped = wakeUps("over_rate") - overBefore;
			long seconds = lastSecond - firstSecond + 1;
			// The flood came, went over the allowance, and what was taken stayed within
			// it.
			assertThat(dropped).as("wake-ups dropped over the allowance").isGreaterThan(0);
			assertThat(taken).as("wake-ups taken in the %d second(s) of the flood", seconds)
				.isBetween(1.0, (double) PER_SECOND * seconds);
			// Each taken wake-up is at most one more claim per worker (of both halves of
			// its block, as the first has nothing); counted at a claim's start, so claims
			// still to come only add to a count that can never pass this bound.
			assertThat(claims("matches") - matchesBefore).as("claims of matches the flood caused")
				.isLessThanOrEqualTo(taken * WORKERS * 2);
			assertThat(claims("rooms")).as("claims of rooms, which the flood did not name").isEqualTo(roomsBefore);
		}
	}

	private static void send(DatagramChannel socket, InetSocketAddress relay, String text) throws Exception {
		socket.send(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), relay);
	}

	private double claims(String source) {
		return this.meters.get("kindling.relay.claims").tag("source", source).counter().count();
	}

	private double wakeUps(String result) {
		return this.meters.get("kindling.relay.wake.ups").tag("result", result).counter().count();
	}

}
