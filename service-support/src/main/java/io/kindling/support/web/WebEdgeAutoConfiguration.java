package io.kindling.support.web;

import java.util.List;

import jakarta.servlet.Filter;
import tools.jackson.databind.json.JsonMapper;

import io.kindling.support.server.ServerBinding;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurationPackages;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
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
import org.springframework.web.filter.CorsFilter;

/**
 * The web edge every service shares: one problem vocabulary for every refusal, strict
 * JSON, one body-size limit, CORS, the container's error pages as problem details, the
 * address the server listens on, the client's address behind trusted proxies only,
 * printable header values, and the actuator closed but for health.
 */
// before Spring Boot's own ResponseEntityExceptionHandler and error controller, which
// back off for these
@AutoConfiguration(
		before = { ErrorMvcAutoConfiguration.class, JacksonAutoConfiguration.class, WebMvcAutoConfiguration.class })
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@EnableConfigurationProperties({ WebEdgeProperties.class, ServerBinding.class })
public class WebEdgeAutoConfiguration {

	@Bean
	Refusals refusals(BeanFactory beanFactory) {
		return Refusals.declaredIn(
				AutoConfigurationPackages.has(beanFactory) ? AutoConfigurationPackages.get(beanFactory) : List.of());
	}

	@Bean
	WebEdgeAdvice webEdgeAdvice() {
		return new WebEdgeAdvice();
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
