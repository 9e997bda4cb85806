package io.kindling.swipe.match;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.ThreadLocalRandom;

import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.WakeUpListener;
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

	static final WakeUpListener relay = WakeUpListener.open();

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
		registry.add("kindling.outbox.wake-up-address", relay::address);
		// no reconciler match of another test's swipes may ring this socket
		registry.add("kindling.swipe.reconciler.interval", () -> "1h");
	}

	@AfterAll
	static void close() {
		relay.close();
	}

	/** Nothing left from an earlier test. */
	@BeforeEach
	void drain() {
		relay.drain();
	}

	@Test
	void aNewMatchRingsTheRelayAfterCommitAndNotBefore() {
		long user = ThreadLocalRandom.current().nextLong(1_000_000_000L, 2_000_000_000L);
		this.transactions.executeWithoutResult((status) -> {
			newMatch(user);
			assertThat(relay.received(200)).as("a datagram before commit").isNull();
		});
		long committed = System.nanoTime();
		assertThat(relay.received(5_000)).isEqualTo("match_outbox");
		System.out.printf("wake-up received %.1f ms after commit%n", (System.nanoTime() - committed) / 1e6);
	}

	@Test
	void aRolledBackMatchDoesNotRing() {
		long user = ThreadLocalRandom.current().nextLong(2_000_000_000L, 3_000_000_000L);
		this.transactions.executeWithoutResult((status) -> {
			newMatch(user);
			status.setRollbackOnly();
		});
		assertThat(relay.received(500)).isNull();
	}

	@Test
	void anUnmatchRingsTheRelayToo() {
		long user = ThreadLocalRandom.current().nextLong(3_000_000_000L, 4_000_000_000L);
		MatchRef match = this.transactions.execute((status) -> newMatch(user));
		assertThat(relay.received(5_000)).isEqualTo("match_outbox");
		this.matches.unmatch(user, match.matchId());
		assertThat(relay.received(5_000)).isEqualTo("match_outbox");
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

}
