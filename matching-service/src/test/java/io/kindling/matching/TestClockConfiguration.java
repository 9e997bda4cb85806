package io.kindling.matching;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import io.kindling.infra.test.MutableClock;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/** Replaces the service's clock with one the test moves. */
@TestConfiguration(proxyBeanMethods = false)
public class TestClockConfiguration {

	@Bean
	@Primary
	MutableClock testClock() {
		// a fraction of a second that a time cut to the second would lose
		return new MutableClock(Instant.now().truncatedTo(ChronoUnit.SECONDS).plusMillis(123));
	}

	/** For contexts built by hand: the same clock instance in several of them. */
	public static void register(org.springframework.context.support.GenericApplicationContext context,
			MutableClock clock) {
		context.registerBean("testClock", Clock.class, () -> clock, (definition) -> definition.setPrimary(true));
	}

}
