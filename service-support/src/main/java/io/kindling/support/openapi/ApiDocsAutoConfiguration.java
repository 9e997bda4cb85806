package io.kindling.support.openapi;

import io.kindling.support.web.Refusals;
import io.swagger.v3.oas.models.OpenAPI;
import org.springdoc.core.customizers.GlobalOpenApiCustomizer;
import org.springdoc.core.customizers.GlobalOperationCustomizer;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;

/**
 * The parts of every service's OpenAPI description that are the same everywhere: JSON
 * schemas as the services' Jackson writes them (snake_case, nulls where a field is
 * nullable), problem responses typed by the refusals the web edge and the service
 * declare, and each endpoint's security from the service's {@link ServiceApi}.
 */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(OpenAPI.class)
@ConditionalOnBean(ServiceApi.class)
public class ApiDocsAutoConfiguration {

	@Bean
	JacksonModels jacksonModels() {
		return new JacksonModels();
	}

	@Bean
	GlobalOperationCustomizer apiOperations(ServiceApi service, Refusals refusals) {
		return new ApiOperations(service, refusals);
	}

	@Bean
	GlobalOpenApiCustomizer apiDocument(ServiceApi service, Refusals refusals) {
		return new ApiDocument(service, refusals);
	}

}
