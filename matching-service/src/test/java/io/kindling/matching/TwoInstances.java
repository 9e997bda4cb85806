package io.kindling.matching;

import java.time.Duration;

import io.kindling.infra.test.MutableClock;

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

	TwoInstances(MutableClock clock) {
		this.clock = clock;
		this.instanceA = instance(clock);
		this.instanceB = instance(clock);
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

	private static ConfigurableApplicationContext instance(MutableClock clock) {
		return new SpringApplicationBuilder(MatchingApplication.class)
			.initializers((context) -> TestClockConfiguration.register((GenericApplicationContext) context, clock))
			// arguments, not default properties: they must win over application.yml
			.run("--server.port=0", "--kindling.matching.rate-limit.joins-per-minute=0",
					"--kindling.matching.rate-limit.sessions-per-minute=0", "--spring.jmx.enabled=false",
					"--logging.level.root=WARN");
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

}
