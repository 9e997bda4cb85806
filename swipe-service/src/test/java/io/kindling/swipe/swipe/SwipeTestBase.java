package io.kindling.swipe.swipe;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.kindling.infra.test.MutableClock;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.swipe.TestApi;
import io.kindling.swipe.geo.Geohash;
import io.kindling.swipe.match.MatchRemoved;
import io.kindling.swipe.match.MatchStore;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;

import org.springframework.aop.framework.ProxyFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import org.springframework.context.event.EventListener;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * One Spring context for all swipe-path tests (so it starts once), on real Redis and
 * MariaDB; the block and likes tests of other packages share it too. Each test takes
 * fresh user ids, so tests never see each other's rows.
 */
@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "kindling_swipe")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "kindling.swipe.daily-likes=5", "kindling.swipe.daily-super-likes=3",
				"kindling.swipe.reconciler.interval=1h" })
@Import(SwipeTestBase.TestBeans.class)
public abstract class SwipeTestBase {

	private static final AtomicLong nextUserId = new AtomicLong(
			5_000_000_000L + ThreadLocalRandom.current().nextLong(1_000_000) * 100_000);

	static final double[] SOUTH_PACIFIC = { -48.8767, -123.3933 };

	@LocalServerPort
	protected int port;

	@Autowired
	protected JdbcClient jdbc;

	@Autowired
	protected JdbcTemplate jdbcTemplate;

	@Autowired
	protected StringRedisTemplate redis;

	@Autowired
	protected MutableClock clock;

	@Autowired
	CrashingSteps crashes;

	@Autowired
	SwipeReconciler reconciler;

	@Autowired
	protected RemovedMatches removedMatches;

	protected TestApi api;

	@BeforeEach
	protected void connect() {
		this.api = new TestApi(this.port);
		this.crashes.reset();
	}

	protected long newUser() {
		return newUsers(1).get(0);
	}

	/** A user id nobody has used, without a profile. */
	protected static long newUserId() {
		return nextUserId.getAndIncrement();
	}

	/**
	 * Users with profiles, written straight to the table (profiles are not under test
	 * here).
	 */
	protected List<Long> newUsers(int count) {
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

	protected static String key() {
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
		static CrashingSteps crashingSteps() {
			return new CrashingSteps();
		}

		@Bean
		RemovedMatches removedMatches() {
			return new RemovedMatches();
		}

	}

	/** Every {@link MatchRemoved} the service published, in order. */
	public static final class RemovedMatches {

		private final List<MatchRemoved> published = new CopyOnWriteArrayList<>();

		@EventListener
		void on(MatchRemoved removed) {
			this.published.add(removed);
		}

		public List<MatchRemoved> of(long matchId) {
			return this.published.stream().filter((removed) -> removed.matchId() == matchId).toList();
		}

	}

	/**
	 * Dies between two steps of one chosen user's next swipe, as a killed process would,
	 * or holds one user's TX 2 just before it writes the match. A seam of the test
	 * configuration alone: it wraps the context's mutual-like script (the step between TX
	 * 1 and TX 2) and match store (the match's write inside TX 2).
	 */
	static final class CrashingSteps implements BeanPostProcessor {

		private volatile long afterFirstTransactionOf = -1;

		private volatile long afterScriptOf = -1;

		private volatile @Nullable Pause beforeMatchOf;

		void reset() {
			this.afterFirstTransactionOf = -1;
			this.afterScriptOf = -1;
			this.beforeMatchOf = null;
		}

		/** The user's next like dies after TX 1 committed, before Redis is asked. */
		void crashAfterFirstTransaction(long userId) {
			this.afterFirstTransactionOf = userId;
		}

		/** The user's next like dies after the mutual-like script ran, before TX 2. */
		void crashAfterScript(long userId) {
			this.afterScriptOf = userId;
		}

		/**
		 * The user's next TX 2 that is about to write a match (it holds the pair's lock
		 * and found no block) counts {@code reached} down and waits there, holding its
		 * locks, until {@code resume} is counted down.
		 */
		void pauseBeforeMatch(long userId, CountDownLatch reached, CountDownLatch resume) {
			this.beforeMatchOf = new Pause(userId, reached, resume);
		}

		@Override
		public Object postProcessAfterInitialization(Object bean, String beanName) {
			if (bean instanceof MutualLikeScript) {
				return wrapped(bean, this::aroundScript);
			}
			if (bean instanceof MatchStore) {
				return wrapped(bean, this::aroundMatchStore);
			}
			return bean;
		}

		private static Object wrapped(Object bean, MethodInterceptor interceptor) {
			ProxyFactory proxy = new ProxyFactory(bean);
			proxy.setProxyTargetClass(true);
			proxy.addAdvice(interceptor);
			return proxy.getProxy(bean.getClass().getClassLoader());
		}

		private @Nullable Object aroundScript(MethodInvocation call) throws Throwable {
			if (!call.getMethod().getName().equals("recordLike")) {
				return call.proceed();
			}
			long userId = (long) call.getArguments()[0];
			if (userId == this.afterFirstTransactionOf) {
				this.afterFirstTransactionOf = -1;
				throw new SimulatedCrash();
			}
			Object outcome = call.proceed();
			if (userId == this.afterScriptOf) {
				this.afterScriptOf = -1;
				throw new SimulatedCrash();
			}
			return outcome;
		}

		private @Nullable Object aroundMatchStore(MethodInvocation call) throws Throwable {
			Pause pause = this.beforeMatchOf;
			if (pause != null && call.getMethod().getName().equals("createIfAbsent")
					&& (long) call.getArguments()[0] == pause.userId()) {
				this.beforeMatchOf = null;
				pause.reached().countDown();
				if (!pause.resume().await(30, TimeUnit.SECONDS)) {
					throw new IllegalStateException("the paused TX 2 was never resumed");
				}
			}
			return call.proceed();
		}

		private record Pause(long userId, CountDownLatch reached, CountDownLatch resume) {

		}

	}

	static final class SimulatedCrash extends RuntimeException {

		SimulatedCrash() {
			super("simulated crash between two steps of a swipe");
		}

	}

}
