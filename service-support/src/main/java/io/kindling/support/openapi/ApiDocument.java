package io.kindling.support.openapi;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.kindling.support.web.ProblemType;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.JsonSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.servers.Server;
import org.springdoc.core.customizers.GlobalOpenApiCustomizer;

/**
 * The document around the operations: the service's title and security schemes, the
 * problem detail schema every refusal shares, and one relative server, so that the
 * description is the same whichever instance or port serves it.
 */
final class ApiDocument implements GlobalOpenApiCustomizer {

	static final String PROBLEM = "#/components/schemas/Problem";

	private final ServiceApi service;

	ApiDocument(ServiceApi service) {
		this.service = service;
	}

	@Override
	public void customise(OpenAPI openApi) {
		openApi.info(this.service.info());
		openApi.servers(List.of(new Server().url("/").description("the instance that serves this description")));
		Components components = (openApi.getComponents() != null) ? openApi.getComponents() : new Components();
		openApi.components(components);
		components.addSchemas("Problem", problem());
		JacksonModels.completeSubtypes(components.getSchemas());
		this.service.securitySchemes().forEach(components::addSecuritySchemes);
	}

	/** RFC 9457 problem details as the web edge writes them (no empty member). */
	private static Schema<?> problem() {
		Map<String, Schema> properties = new LinkedHashMap<>();
		properties.put("type", new JsonSchema().types(Set.of("string"))
			.format("uri")
			.description("What went wrong; one of " + ProblemType.BASE + "<slug>, listed in docs/errors.md")
			._enum(List.of(ProblemType.values()).stream().map((type) -> (Object) type.uri().toString()).toList()));
		properties.put("title", new JsonSchema().types(Set.of("string")).description("The type's title"));
		properties.put("status", new JsonSchema().types(Set.of("integer")).description("The HTTP status"));
		properties.put("detail", new JsonSchema().types(Set.of("string")).description("This occurrence, in words"));
		properties.put("instance",
				new JsonSchema().types(Set.of("string"))
					.format("uri-reference")
					.description("The path that was called"));
		return new JsonSchema().types(Set.of("object"))
			.description("A refusal or failure, as RFC 9457 problem details")
			.properties(properties)
			.required(List.of("type", "title", "status"));
	}

}
