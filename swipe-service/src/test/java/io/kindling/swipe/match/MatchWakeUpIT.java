package io.kindling.swipe.match;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.ThreadLocalRandom;

import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A match's outbox row rings the relay's UDP wake-up once its transaction commits, and
 * never for a transaction that rolls back.
 */
@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "kindling_swipe")
@SpringBootTest
class MatchWakeUpIT {

	static final DatagramSocket relay = openRelaySocket();

	@Autowired
	MatchStore store;

	@Autowired
	MatchOutbox outbox;

	@Autowired
	Matches matches;

	@Autowired
	TransactionTemplate transactions;

	@DynamicPropertySource
	static void settings(DynamicPropertyRegistry registry) {
		registry.add("kindling.outbox.wake-up-address", () -> "127.0.0.1:" + relay.getLocalPort());
		// no reconciler match of another test's swipes may ring this socket
		registry.add("kindling.swipe.reconciler.interval", () -> "1h");
	}

	@AfterAll
	static void close() {
		relay.close();
	}

	@BeforeEach
	void drain() throws IOException {
		relay.setSoTimeout(1);
		try {
			while (true) {
				relay.receive(new DatagramPacket(new byte[64], 64));
			}
		}
		catch (SocketTimeoutException ex) {
			// nothing left from an earlier test
		}
	}

	@Test
	void aNewMatchRingsTheRelayAfterCommitAndNotBefore() throws IOException {
		long user = ThreadLocalRandom.current().nextLong(1_000_000_000L, 2_000_000_000L);
		this.transactions.executeWithoutResult((status) -> {
			newMatch(user);
			assertThat(received(200)).as("a datagram before commit").isNull();
		});
		long committed = System.nanoTime();
		assertThat(received(5_000)).isEqualTo("match_outbox");
		System.out.printf("wake-up received %.1f ms after commit%n", (System.nanoTime() - committed) / 1e6);
	}

	@Test
	void aRolledBackMatchDoesNotRing() throws IOException {
		long user = ThreadLocalRandom.current().nextLong(2_000_000_000L, 3_000_000_000L);
		this.transactions.executeWithoutResult((status) -> {
			newMatch(user);
			status.setRollbackOnly();
		});
		assertThat(received(500)).isNull();
	}

	@Test
	void anUnmatchRingsTheRelayToo() throws IOException {
		long user = ThreadLocalRandom.current().nextLong(3_000_000_000L, 4_000_000_000L);
		MatchRef match = this.transactions.execute((status) -> newMatch(user));
		assertThat(received(5_000)).isEqualTo("match_outbox");
		this.matches.unmatch(user, match.matchId());
		assertThat(received(5_000)).isEqualTo("match_outbox");
	}

	/**
	 * A match of the user and the next id with its outbox row, as a swipe's TX 2 writes
	 * them.
	 */
	private MatchRef newMatch(long user) {
		Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
		MatchRef match = this.store.createIfAbsent(user, user + 1, now).match();
		this.outbox.matchCreated(match, now);
		return match;
	}

	private static @Nullable String received(int timeoutMillis) {
		DatagramPacket packet = new DatagramPacket(new byte[64], 64);
		try {
			relay.setSoTimeout(timeoutMillis);
			relay.receive(packet);
			return new String(packet.getData(), 0, packet.getLength(), StandardCharsets.UTF_8);
		}
		catch (SocketTimeoutException ex) {
			return null;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static DatagramSocket openRelaySocket() {
		try {
			return new DatagramSocket(0, InetAddress.getLoopbackAddress());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
