package io.kindling.support.web;

import java.util.List;

import tools.jackson.databind.json.JsonMapper;

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

	// first of all, so that every answer a browser gets (a 413 too) carries the CORS
	// headers it needs to read it
	@Bean
	FilterRegistrationBean<CorsFilter> crossOrigins(WebEdgeProperties properties, JsonMapper json) {
		FilterRegistrationBean<CorsFilter> registration = new FilterRegistrationBean<>(
				CrossOrigins.filter(properties.allowedOrigins(), json));
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
		return registration;
	}

	// before anything asks for the client's address
	@Bean
	FilterRegistrationBean<ClientAddresses> clientAddresses(WebEdgeProperties properties) {
		FilterRegistrationBean<ClientAddresses> registration = new FilterRegistrationBean<>(
				new ClientAddresses(WebEdgeProperties.trustedProxyBlocks(properties.trustedProxies())));
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 1);
		return registration;
	}

	// before everything that reads a header, Spring Security included
	@Bean
	FilterRegistrationBean<PrintableHeaders> printableHeaders(JsonMapper json) {
		FilterRegistrationBean<PrintableHeaders> registration = new FilterRegistrationBean<>(
				new PrintableHeaders(json));
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 2);
		return registration;
	}

	@Bean
	FilterRegistrationBean<ActuatorGate> actuatorGate(WebEdgeProperties properties, JsonMapper json) {
		FilterRegistrationBean<ActuatorGate> registration = new FilterRegistrationBean<>(
				new ActuatorGate(properties.metricsToken(), json));
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 3);
		return registration;
	}

	// before Spring Security and everything else that might read the body
	@Bean
	FilterRegistrationBean<BodySizeLimit> bodySizeLimit(WebEdgeProperties properties, JsonMapper json) {
		FilterRegistrationBean<BodySizeLimit> registration = new FilterRegistrationBean<>(
				new BodySizeLimit(properties, json));
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 4);
		return registration;
	}

	@Bean
	FilterRegistrationBean<ContentTypeGate> contentTypeGate(JsonMapper json) {
		FilterRegistrationBean<ContentTypeGate> registration = new FilterRegistrationBean<>(new ContentTypeGate(json));
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 5);
		return registration;
	}

	@Bean
	FilterRegistrationBean<EmptyErrorBodies> emptyErrorBodies(JsonMapper json) {
		FilterRegistrationBean<EmptyErrorBodies> registration = new FilterRegistrationBean<>(
				new EmptyErrorBodies(json));
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 6);
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
