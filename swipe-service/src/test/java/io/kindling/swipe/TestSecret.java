package io.kindling.swipe;

import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Gives every swipe-service the tests start this run's secret, {@link TestTokens#SECRET},
 * as {@code ./kindling up} gives its own: in {@code KINDLING_JWT_SECRET}, which
 * application.yml reads. A test that sets {@code kindling.security.jwt-secret} itself (to
 * another secret, or to none) still does.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class TestSecret implements EnvironmentPostProcessor {

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		environment.getPropertySources()
			.addFirst(new MapPropertySource("testSecret", Map.of("KINDLING_JWT_SECRET", TestTokens.SECRET)));
	}

}
