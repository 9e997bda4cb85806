package io.kindling.support.metrics;

import io.prometheus.metrics.tracer.common.SpanContext;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * A service that traces exports its metrics without exemplars. Spring Boot would attach
 * the current trace to each timer's {@code _count} in the OpenMetrics answer of
 * {@code /actuator/prometheus}, and Debian's Prometheus (2.42, which
 * {@code ./kindling up} runs) refuses the whole scrape for it ("metric name
 * http_server_requests_seconds_count does not support exemplars"): the instance would
 * look down. The trace still reaches the logs and the outbox rows.
 */
@AutoConfiguration(
		beforeName = "org.springframework.boot.micrometer.tracing.autoconfigure.prometheus.PrometheusExemplarsAutoConfiguration")
@ConditionalOnClass(SpanContext.class)
public final class NoExemplarsAutoConfiguration {

	/** A span context with no span: the registry samples no exemplar. */
	@Bean
	SpanContext noExemplars() {
		return new SpanContext() {

			@Override
			public @Nullable String getCurrentTraceId() {
				return null;
			}

			@Override
			public @Nullable String getCurrentSpanId() {
				return null;
			}

			@Override
			public boolean isCurrentSpanSampled() {
				return false;
			}

			@Override
			public void markCurrentSpanAsExemplar() {
			}

		};
	}

}
