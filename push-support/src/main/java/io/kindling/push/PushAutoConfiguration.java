package io.kindling.push;

import io.swagger.v3.oas.models.OpenAPI;
import org.springdoc.core.customizers.GlobalOperationCustomizer;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What every service with event streams gets: handlers may take a {@link LastEventId}.
 */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
public class PushAutoConfiguration {

	@Bean
	LastEventIdResolver lastEventIdResolver() {
		return new LastEventIdResolver();
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(OpenAPI.class)
	static class LastEventIdInTheApiDescription {

		@Bean
		GlobalOperationCustomizer lastEventIdParameters() {
			return new LastEventIdParameters();
		}

	}

}
