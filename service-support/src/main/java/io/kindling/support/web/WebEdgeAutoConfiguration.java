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
 * JSON, one body-size limit, CORS, and the container's error pages as problem details.
 */
// before Spring Boot's own ResponseEntityExceptionHandler and error controller, which
// back off for these
@AutoConfiguration(
		before = { ErrorMvcAutoConfiguration.class, JacksonAutoConfiguration.class, WebMvcAutoConfiguration.class })
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@EnableConfigurationProperties(WebEdgeProperties.class)
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

	// before Spring Security and everything else that might read the body
	@Bean
	FilterRegistrationBean<BodySizeLimit> bodySizeLimit(WebEdgeProperties properties, JsonMapper json) {
		FilterRegistrationBean<BodySizeLimit> registration = new FilterRegistrationBean<>(
				new BodySizeLimit(properties, json));
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 1);
		return registration;
	}

	@Bean
	FilterRegistrationBean<ContentTypeGate> contentTypeGate(JsonMapper json) {
		FilterRegistrationBean<ContentTypeGate> registration = new FilterRegistrationBean<>(new ContentTypeGate(json));
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 2);
		return registration;
	}

	@Bean
	FilterRegistrationBean<EmptyErrorBodies> emptyErrorBodies(JsonMapper json) {
		FilterRegistrationBean<EmptyErrorBodies> registration = new FilterRegistrationBean<>(
				new EmptyErrorBodies(json));
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 3);
		return registration;
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(TomcatServletWebServerFactory.class)
	static class TomcatErrorReport {

		@Bean
		WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemReportValve() {
			return new ProblemReportValveCustomizer();
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
