package io.kindling.matching;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.kindling.infra.test.MutableClock;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Two instances of the service (two Spring Boot contexts on their own ports) on the Redis
 * and MariaDB that the system properties name, whatever the Redis mode, sharing one test
 * clock.
 */
final class TwoInstances implements AutoCloseable {

	final MutableClock clock;

	final ConfigurableApplicationContext instanceA;

	final ConfigurableApplicationContext instanceB;

	final Api a;

	final Api b;

	final StringRedisTemplate redis;

	final JdbcClient jdbc;

	/**
	 * @param settings more arguments for both instances ({@code --name=value})
	 */
	TwoInstances(MutableClock clock, String... settings) {
		this.clock = clock;
		this.instanceA = instance(clock, settings);
		this.instanceB = instance(clock, settings);
		this.a = new Api(port(this.instanceA));
		this.b = new Api(port(this.instanceB));
		this.redis = this.instanceA.getBean(StringRedisTemplate.class);
		this.jdbc = this.instanceA.getBean(JdbcClient.class);
	}

	/** Empties Redis (every primary of a cluster) and the rooms' tables. */
	void freshStores() {
		this.redis.execute((RedisCallback<Object>) (connection) -> {
			connection.serverCommands().flushDb();
			return null;
		});
		this.jdbc.sql("DELETE FROM seats").update();
		this.jdbc.sql("DELETE FROM bans").update();
		RoomFeatures.forgetBans(this.instanceA, this.instanceB);
	}

	double counter(String name, String... tags) {
		double total = 0;
		for (ConfigurableApplicationContext instance : new ConfigurableApplicationContext[] { this.instanceA,
				this.instanceB }) {
			var registry = instance.getBean(io.micrometer.core.instrument.MeterRegistry.class);
			total += registry.find(name).tags(tags).counters().stream().mapToDouble((c) -> c.count()).sum();
		}
		return total;
	}

	private static ConfigurableApplicationContext instance(MutableClock clock, String... settings) {
		List<String> arguments = new ArrayList<>(
				List.of("--server.port=0", "--kindling.matching.rate-limit.joins-per-minute=0",
						"--kindling.matching.rate-limit.sessions-per-minute=0",
						"--kindling.matching.admin-token=" + RoomFeatures.ADMIN_TOKEN, "--spring.jmx.enabled=false",
						"--logging.level.root=WARN"));
		arguments.addAll(List.of(settings));
		return new SpringApplicationBuilder(MatchingApplication.class)
			.initializers((context) -> TestClockConfiguration.register((GenericApplicationContext) context, clock))
			// arguments, not default properties: they must win over application.yml
			.run(arguments.toArray(String[]::new));
	}

	private static int port(ConfigurableApplicationContext context) {
		return Integer.parseInt(context.getEnvironment().getProperty("local.server.port", "0"));
	}

	@Override
	public void close() throws InterruptedException {
		// bounded: a pub/sub subscription recovering at shutdown can block close()
		// (spring-data-redis#2822)
		for (ConfigurableApplicationContext instance : new ConfigurableApplicationContext[] { this.instanceB,
				this.instanceA }) {
			Thread closing = Thread.ofPlatform().daemon().start(instance::close);
			closing.join(Duration.ofSeconds(15));
		}
	}

	/**
	 * Two instances for a test class, as a JUnit extension ({@code @RegisterExtension
	 * static}): started before its first test, on a clock of their own, their stores
	 * emptied before each test, closed after the last.
	 */
	static final class PerClass implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {

		private final String[] settings;

		private @Nullable TwoInstances instances;

		/**
		 * @param settings more arguments for both instances ({@code --name=value})
		 */
		PerClass(String... settings) {
			this.settings = settings;
		}

		TwoInstances get() {
			return Objects.requireNonNull(this.instances, "started before the class's first test");
		}

		@Override
		public void beforeAll(ExtensionContext context) {
			this.instances = new TwoInstances(new MutableClock(Instant.now().truncatedTo(ChronoUnit.MILLIS)),
					this.settings);
		}

		@Override
		public void beforeEach(ExtensionContext context) {
			get().freshStores();
		}

		@Override
		public void afterAll(ExtensionContext context) throws InterruptedException {
			if (this.instances != null) {
				this.instances.close();
				this.instances = null;
			}
		}

	}

}
