package io.kindling.push;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.kindling.infra.test.MutableClock;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.RealServersExtension;
import io.kindling.redis.LuaScript;
import io.kindling.support.web.ProblemType;
import io.kindling.support.web.Refused;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A principal's streams are counted across instances (two {@link StreamLeases} on one
 * Redis are two instances), a dead instance's stop counting once their leases end, and
 * stream tickets are counted per principal and minute.
 */
@RealServers(Server.REDIS)
class StreamLimitsIT {

	static final StreamLimits LIMITS = new StreamLimits(4, 3, Duration.ofSeconds(30));

	static JedisConnectionFactory connections;

	static StringRedisTemplate redis;

	final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T12:00:00Z"));

	StreamLeases a;

	StreamLeases b;

	@BeforeAll
	static void connect() {
		connections = new JedisConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", RealServersExtension.redis().port()));
		connections.afterPropertiesSet();
		connections.start();
		redis = new StringRedisTemplate(connections);
	}

	@AfterAll
	static void disconnect() {
		connections.destroy();
	}

	@BeforeEach
	void twoInstances() {
		redis.getConnectionFactory().getConnection().serverCommands().flushDb();
		this.a = leases();
		this.b = leases();
	}

	@Test
	void theFifthStreamOfAPrincipalIsRefusedWhicheverInstancesHoldTheFour() {
		this.a.acquire("user:7");
		this.a.acquire("user:7");
		StreamLeases.Lease onB = this.b.acquire("user:7");
		this.b.acquire("user:7");

		assertThatExceptionOfType(Refused.class).isThrownBy(() -> this.a.acquire("user:7")).satisfies((refused) -> {
			assertThat(refused.refusal()).isEqualTo(ProblemType.TOO_MANY_STREAMS);
			assertThat(refused.retryAfter())
				.hasValueSatisfying((wait) -> assertThat(wait).isPositive().isLessThanOrEqualTo(LIMITS.streamLease()));
		});
		assertThat(this.a.acquire("user:8")).as("another principal is counted apart").isNotNull();

		this.b.release(onB);
		assertThat(this.a.acquire("user:7")).as("a closed stream stops counting").isNotNull();
	}

	@Test
	void aDeadInstancesStreamsStopCountingWhenTheirLeasesEndAndLiveOnesKeepCounting() {
		this.a.acquire("user:7");
		this.a.acquire("user:7");
		this.b.acquire("user:7");
		this.b.acquire("user:7");
		assertThatExceptionOfType(Refused.class).isThrownBy(() -> this.a.acquire("user:7"));

		// b dies: it renews nothing from now on; a renews its own as it does every third
		// of
		// a lease
		for (int i = 0; i < 3; i++) {
			this.clock.advance(LIMITS.streamLease().dividedBy(3));
			this.a.renew();
		}
		this.clock.advance(Duration.ofSeconds(1));

		this.a.acquire("user:7");
		this.a.acquire("user:7");
		assertThatExceptionOfType(Refused.class).as("a's four are still open and counted")
			.isThrownBy(() -> this.a.acquire("user:7"));
	}

	@Test
	void aStreamReleasedWhileItsLeaseIsBeingRenewedStaysReleased() {
		List<StreamLeases.Lease> open = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			open.add(this.a.acquire("user:7"));
		}
		StreamLeases.Lease closed = open.remove(1);

		// the ping that finds the client gone releases its lease on a thread of its own
		// while the renewal is under way: after the renewal read the leases held here,
		// before its script reaches Redis; the release gets every chance to land first
		List<Thread> releases = new ArrayList<>();
		try (LuaScript.Listening listening = LuaScript.listen((script, keys) -> {
			if (script.name().equals("renew_stream_leases") && keys.contains(closed.key())) {
				Thread release = Thread.ofPlatform().start(() -> this.a.release(closed));
				releases.add(release);
				join(release, Duration.ofSeconds(1));
			}
		})) {
			this.a.renew();
		}
		assertThat(releases).as("the release ran during the renewal").hasSize(1);
		join(releases.get(0), Duration.ofSeconds(10));
		assertThat(releases.get(0).isAlive()).as("the release finished").isFalse();

		assertThat(redis.opsForZSet().score(closed.key(), closed.id())).as("the released lease").isNull();
		assertThat(open).allSatisfy((lease) -> assertThat(redis.opsForZSet().score(lease.key(), lease.id()))
			.isEqualTo((double) (this.clock.millis() + LIMITS.streamLease().toMillis())));
		// the clock stands still: a lease the renewal put back would count for good
		this.b.acquire("user:7");
		assertThatExceptionOfType(Refused.class).isThrownBy(() -> this.b.acquire("user:7"));
	}

	@Test
	void aPrincipalsKeyHoldsNoTokenAndEndsWithItsLastLease() {
		StreamLeases.Lease lease = this.a.acquire("a-session-token-that-must-not-be-a-key");

		assertThat(lease.key()).startsWith("test:streams:{").doesNotContain("session-token");
		assertThat(redis.getExpire(lease.key())).isPositive().isLessThanOrEqualTo(LIMITS.streamLease().toSeconds());
	}

	@Test
	void ticketsAreCountedPerPrincipalAndMinuteAcrossInstances() {
		StreamTickets onA = new StreamTickets(redis, this.clock, LIMITS, "test:ticket:");
		StreamTickets onB = new StreamTickets(redis, this.clock, LIMITS, "test:ticket:");
		this.clock.advance(Duration.ofSeconds(20));
		List<String> issued = new ArrayList<>();
		issued.add(onA.issue("user:7").ticket());
		issued.add(onB.issue("user:7").ticket());
		issued.add(onA.issue("user:7").ticket());

		assertThatExceptionOfType(Refused.class).isThrownBy(() -> onB.issue("user:7")).satisfies((refused) -> {
			assertThat(refused.refusal()).isEqualTo(ProblemType.RATE_LIMITED);
			assertThat(refused.retryAfter()).hasValue(Duration.ofSeconds(40));
		});
		assertThat(onB.issue("user:8")).as("another principal is counted apart").isNotNull();
		assertThat(issued).allSatisfy((ticket) -> assertThat(onA.redeem(ticket)).hasValue("user:7"));

		this.clock.advance(Duration.ofSeconds(40));
		assertThat(onB.issue("user:7")).as("a new minute").isNotNull();
	}

	private static void join(Thread thread, Duration atMost) {
		try {
			thread.join(atMost);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private StreamLeases leases() {
		return new StreamLeases(redis, this.clock, new ThreadPoolTaskScheduler(), LIMITS, "test:streams:");
	}

}
