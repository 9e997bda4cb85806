package io.kindling.swipe.swipe;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

import io.kindling.infra.test.MutableClock;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.swipe.TestApi;
import io.kindling.swipe.geo.Geohash;
import org.junit.jupiter.api.BeforeEach;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * One Spring context for all swipe-path tests (so it starts once), on real Redis and
 * MariaDB. Each test takes fresh user ids, so tests never see each other's rows.
 */
@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "kindling_swipe")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "kindling.swipe.daily-likes=5", "kindling.swipe.daily-super-likes=3",
				"kindling.swipe.reconciler.interval=1h" })
@Import(SwipeTestBase.TestBeans.class)
abstract class SwipeTestBase {

	private static final AtomicLong nextUserId = new AtomicLong(
			5_000_000_000L + ThreadLocalRandom.current().nextLong(1_000_000) * 100_000);

	static final double[] SOUTH_PACIFIC = { -48.8767, -123.3933 };

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	JdbcTemplate jdbcTemplate;

	@Autowired
	StringRedisTemplate redis;

	@Autowired
	MutableClock clock;

	@Autowired
	CrashingSteps crashes;

	@Autowired
	SwipeReconciler reconciler;

	TestApi api;

	@BeforeEach
	void connect() {
		this.api = new TestApi(this.port);
		this.crashes.reset();
	}

	long newUser() {
		return newUsers(1).get(0);
	}

	/**
	 * Users with profiles, written straight to the table (profiles are not under test
	 * here).
	 */
	List<Long> newUsers(int count) {
		List<Long> ids = new ArrayList<>(count);
		List<Object[]> rows = new ArrayList<>(count);
		Timestamp now = Timestamp.from(Instant.now());
		// far out in the South Pacific, so that no deck test ever meets these people
		String geohash = Geohash.encode(SOUTH_PACIFIC[0], SOUTH_PACIFIC[1], Geohash.STORED_PRECISION);
		for (int i = 0; i < count; i++) {
			long id = nextUserId.getAndIncrement();
			ids.add(id);
			rows.add(new Object[] { id, "user " + id, (i % 2 == 0) ? "WOMAN" : "MAN", "WOMAN,MAN",
					java.sql.Date.valueOf("1995-05-05"), SOUTH_PACIFIC[0], SOUTH_PACIFIC[1], geohash, 18, 99, 1, now,
					now, now });
		}
		this.jdbcTemplate.batchUpdate("""
				INSERT INTO profiles (user_id, display_name, gender, interested_in, birth_date, lat, lon, geohash,
				                      age_min, age_max, max_distance_km, created_at, updated_at, last_active_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
				""", rows);
		return ids;
	}

	static String key() {
		return java.util.UUID.randomUUID().toString();
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class TestBeans {

		@Bean
		@Primary
		MutableClock mutableClock() {
			return MutableClock.ticking();
		}

		@Bean
		CrashingSteps crashingSteps() {
			return new CrashingSteps();
		}

	}

	/**
	 * Dies between two steps of one chosen user's next swipe, as a killed process would.
	 */
	static final class CrashingSteps implements SwipeSteps {

		private volatile long afterFirstTransactionOf = -1;

		private volatile long afterScriptOf = -1;

		void reset() {
			this.afterFirstTransactionOf = -1;
			this.afterScriptOf = -1;
		}

		void crashAfterFirstTransaction(long userId) {
			this.afterFirstTransactionOf = userId;
		}

		void crashAfterScript(long userId) {
			this.afterScriptOf = userId;
		}

		@Override
		public void afterFirstTransaction(SwipeRow swipe) {
			if (swipe.userId() == this.afterFirstTransactionOf) {
				this.afterFirstTransactionOf = -1;
				throw new SimulatedCrash();
			}
		}

		@Override
		public void afterScript(SwipeRow swipe) {
			if (swipe.userId() == this.afterScriptOf) {
				this.afterScriptOf = -1;
				throw new SimulatedCrash();
			}
		}

	}

	static final class SimulatedCrash extends RuntimeException {

		SimulatedCrash() {
			super("simulated crash between two steps of a swipe");
		}

	}

}
