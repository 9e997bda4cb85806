package io.kindling.push;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.kindling.infra.test.MutableClock;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.RealServersExtension;
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

	private StreamLeases leases() {
		return new StreamLeases(redis, this.clock, new ThreadPoolTaskScheduler(), LIMITS, "test:streams:");
	}

}
