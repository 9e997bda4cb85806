package io.kindling.swipe.swipe;

import java.time.Duration;

import io.kindling.swipe.SwipeApplication;
import io.kindling.swipe.TestApi;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Another instance of the service beside the test's own context, on the Redis and MariaDB
 * the system properties name (whatever the Redis mode), as a second process would run.
 * Registered as an extension ({@code @RegisterExtension static SecondInstance other}), it
 * starts before the class's tests, after the real servers, and stops after them.
 */
final class SecondInstance implements BeforeAllCallback, AfterAllCallback {

	ConfigurableApplicationContext context;

	TestApi api;

	@Override
	public void beforeAll(ExtensionContext junit) {
		this.context = new SpringApplicationBuilder(SwipeApplication.class)
			// arguments, not default properties: they must win over application.yml
			.run("--server.port=0", "--spring.jmx.enabled=false", "--logging.level.root=WARN",
					"--kindling.swipe.reconciler.interval=1h");
		this.api = new TestApi(Integer.parseInt(this.context.getEnvironment().getProperty("local.server.port", "0")));
	}

	double counter(String name) {
		return this.context.getBean(MeterRegistry.class)
			.find(name)
			.counters()
			.stream()
			.mapToDouble((counter) -> counter.count())
			.sum();
	}

	@Override
	public void afterAll(ExtensionContext junit) throws InterruptedException {
		if (this.context != null) {
			// bounded: a pub/sub subscription recovering at shutdown can block close()
			// (spring-data-redis#2822)
			Thread closing = Thread.ofPlatform().daemon().start(this.context::close);
			closing.join(Duration.ofSeconds(15));
		}
	}

}
