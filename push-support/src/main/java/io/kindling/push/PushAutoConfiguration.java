package io.kindling.push;

import java.time.Clock;

import io.swagger.v3.oas.models.OpenAPI;
import org.springdoc.core.customizers.GlobalOperationCustomizer;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.scheduling.TaskScheduler;

/**
 * What every service with event streams gets: handlers may take a {@link LastEventId},
 * and the streams each principal holds are counted across instances
 * ({@link StreamLeases}, under {@code <spring.application.name>:streams:}).
 */
@AutoConfiguration(afterName = { "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
		"org.springframework.boot.autoconfigure.task.TaskSchedulingAutoConfiguration" })
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@EnableConfigurationProperties(StreamLimits.class)
public class PushAutoConfiguration {

	@Bean
	@ConditionalOnBean({ StringRedisTemplate.class, TaskScheduler.class })
	StreamLeases streamLeases(StringRedisTemplate redis, Clock clock, TaskScheduler scheduler, StreamLimits limits,
			Environment environment) {
		return new StreamLeases(redis, clock, scheduler, limits,
				environment.getRequiredProperty("spring.application.name") + ":streams:");
	}

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
