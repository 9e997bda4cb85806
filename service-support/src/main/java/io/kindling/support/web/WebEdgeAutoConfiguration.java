package io.kindling.support.web;

import java.util.List;

import jakarta.servlet.Filter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import tools.jackson.databind.json.JsonMapper;

import io.kindling.support.server.ServerBinding;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurationPackages;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.http.converter.autoconfigure.ServerHttpMessageConvertersCustomizer;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.ConfigurableWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.error.ErrorMvcAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;
import org.springframework.web.filter.CorsFilter;

/**
 * The web edge every service shares: one problem vocabulary for every refusal, strict
 * JSON, one body-size limit, CORS, the container's error pages as problem details, the
 * address the server listens on, the client's address behind trusted proxies only,
 * printable header values, the actuator closed but for health, and one concurrency limit
 * that sheds what an instance cannot serve.
 */
// before Spring Boot's own ResponseEntityExceptionHandler and error controller, which
// back off for these
@AutoConfiguration(
		before = { ErrorMvcAutoConfiguration.class, JacksonAutoConfiguration.class, WebMvcAutoConfiguration.class })
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@EnableConfigurationProperties({ WebEdgeProperties.class, ServerBinding.class, OverloadProperties.class })
public class WebEdgeAutoConfiguration {

	@Bean
	Refusals refusals(BeanFactory beanFactory) {
		return Refusals.declaredIn(
				AutoConfigurationPackages.has(beanFactory) ? AutoConfigurationPackages.get(beanFactory) : List.of());
	}

	@Bean
	WebEdgeAdvice webEdgeAdvice(OverloadProperties overload) {
		return new WebEdgeAdvice(overload.retryAfter());
	}

	@Bean
	StrictUtf8Bodies strictUtf8Bodies() {
		return new StrictUtf8Bodies();
	}

	@Bean
	ProblemErrorController problemErrorController(JsonMapper json) {
		return new ProblemErrorController(json);
	}

	@Bean
	JsonMapperBuilderCustomizer strictJson() {
		return new StrictJson();
	}

	/**
	 * JSON answers sent with their length, in one write ({@link SizedJson}); after Spring
	 * Boot's own customizers, whose JSON converter it replaces.
	 */
	@Bean
	@Order(Ordered.LOWEST_PRECEDENCE)
	ServerHttpMessageConvertersCustomizer sizedJson(JsonMapper json) {
		return (converters) -> converters.withJsonConverter(new SizedJson(json));
	}

	// The filters, in the order they run. First of all CORS, so that every answer a
	// browser gets (a 413 too) carries the headers it needs to read it.
	@Bean
	FilterRegistrationBean<CorsFilter> crossOrigins(WebEdgeProperties properties, JsonMapper json) {
		return inOrder(0, CrossOrigins.filter(properties.allowedOrigins(), json));
	}

	// before anything asks for the client's address
	@Bean
	FilterRegistrationBean<ClientAddresses> clientAddresses(WebEdgeProperties properties) {
		return inOrder(1, new ClientAddresses(WebEdgeProperties.trustedProxyBlocks(properties.trustedProxies())));
	}

	// before everything that reads a header, Spring Security included
	@Bean
	FilterRegistrationBean<PrintableHeaders> printableHeaders(JsonMapper json) {
		return inOrder(2, new PrintableHeaders(json));
	}

	@Bean
	FilterRegistrationBean<ActuatorGate> actuatorGate(WebEdgeProperties properties, JsonMapper json) {
		return inOrder(3, new ActuatorGate(properties.metricsToken(), json));
	}

	// before Spring Security and everything else that might read the body
	@Bean
	FilterRegistrationBean<BodySizeLimit> bodySizeLimit(WebEdgeProperties properties, JsonMapper json) {
		return inOrder(4, new BodySizeLimit(properties, json));
	}

	@Bean
	FilterRegistrationBean<ContentTypeGate> contentTypeGate(JsonMapper json) {
		return inOrder(5, new ContentTypeGate(json));
	}

	@Bean
	FilterRegistrationBean<EmptyErrorBodies> emptyErrorBodies(JsonMapper json) {
		return inOrder(6, new EmptyErrorBodies(json));
	}

	// after the cheap refusals above, before Spring Security checks credentials or
	// anything reads the body
	@Bean
	FilterRegistrationBean<LoadShedding> loadShedding(OverloadProperties properties, Environment environment,
			JsonMapper json) {
		LoadShedding shedding = new LoadShedding(properties, managementPath(environment), json);
		FilterRegistrationBean<LoadShedding> registration = inOrder(7, shedding);
		registration.setEnabled(properties.enabled());
		int threads = environment.getProperty("server.tomcat.threads.max", Integer.class, 200);
		if (properties.enabled() && properties.limit() >= threads) {
			throw new IllegalStateException(
					"kindling.web.overload.limit (" + properties.limit() + ") must be below server.tomcat.threads.max ("
							+ threads + "): the threads above the limit answer the refusals and the health checks");
		}
		return registration;
	}

	private static String managementPath(Environment environment) {
		String base = environment.getProperty("management.endpoints.web.base-path", "/actuator");
		return (base.endsWith("/") && base.length() > 1) ? base.substring(0, base.length() - 1) : base;
	}

	/** A filter that runs before every other, at this place among the web edge's. */
	private static <F extends Filter> FilterRegistrationBean<F> inOrder(int place, F filter) {
		FilterRegistrationBean<F> registration = new FilterRegistrationBean<>(filter);
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE + place);
		return registration;
	}

	/** Every server socket on {@code kindling.bind-address}, when it is set. */
	@Bean
	WebServerFactoryCustomizer<ConfigurableWebServerFactory> bindAddress(ServerBinding binding) {
		return new BindAddressCustomizer(binding);
	}

	/** The limit, the requests at work and the refusals, for Prometheus. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterRegistry.class)
	static class LoadSheddingMetrics {

		@Bean
		MeterBinder loadSheddingMeters(FilterRegistrationBean<LoadShedding> loadShedding) {
			LoadShedding shedding = loadShedding.getFilter();
			return (registry) -> {
				Gauge.builder("kindling.web.overload.limit", shedding, LoadShedding::limit)
					.description("The most requests this instance works on at once now")
					.register(registry);
				Gauge.builder("kindling.web.overload.in.flight", shedding, LoadShedding::inFlight)
					.description("Requests this instance works on now (management endpoints aside)")
					.register(registry);
				FunctionCounter.builder("kindling.web.overload.refused", shedding, LoadShedding::refused)
					.description("Requests refused with 503 overloaded")
					.register(registry);
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(TomcatServletWebServerFactory.class)
	static class TomcatErrorReport {

		@Bean
		WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemReportValve() {
			return new ProblemReportValveCustomizer();
		}

	}

	/** After Spring Boot's own customizer, which applies {@code server.address}. */
	static final class BindAddressCustomizer
			implements WebServerFactoryCustomizer<ConfigurableWebServerFactory>, Ordered {

		private final ServerBinding binding;

		BindAddressCustomizer(ServerBinding binding) {
			this.binding = binding;
		}

		@Override
		public void customize(ConfigurableWebServerFactory factory) {
			if (this.binding.bindAddress() != null) {
				factory.setAddress(this.binding.bindAddress());
			}
		}

		@Override
		public int getOrder() {
			return Ordered.LOWEST_PRECEDENCE;
		}

	}

	/** After Spring Boot's own customizer, which adds the valve this one replaces. */
	static final class ProblemReportValveCustomizer
			implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, Ordered {

		@Override
		public void customize(TomcatServletWebServerFactory factory) {
			factory.addContextCustomizers(ProblemReportValve::install);
		}

		@Override
		public int getOrder() {
			return Ordered.LOWEST_PRECEDENCE;
		}

	}

}
