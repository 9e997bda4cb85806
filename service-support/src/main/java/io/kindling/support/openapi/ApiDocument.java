package io.kindling.support.openapi;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.kindling.support.web.Refusal;
import io.kindling.support.web.Refusals;
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

	private final Refusals declared;

	ApiDocument(ServiceApi service, Refusals declared) {
		this.service = service;
		this.declared = declared;
	}

	@Override
	public void customise(OpenAPI openApi) {
		openApi.info(this.service.info());
		openApi.servers(List.of(new Server().url("/").description("the instance that serves this description")));
		Components components = (openApi.getComponents() != null) ? openApi.getComponents() : new Components();
		openApi.components(components);
		components.addSchemas("Problem", problem(this.declared));
		JacksonModels.completeSubtypes(components.getSchemas());
		this.service.securitySchemes().forEach(components::addSecuritySchemes);
	}

	/**
	 * RFC 9457 problem details as the web edge writes them (no empty member), of the
	 * types the service declares.
	 */
	private static Schema<?> problem(Refusals declared) {
		Map<String, Schema> properties = new LinkedHashMap<>();
		properties.put("type",
				new JsonSchema().types(Set.of("string"))
					.format("uri")
					.description("What went wrong; one of " + Refusal.BASE + "<slug>, listed in docs/errors.md")
					._enum(declared.uris().stream().map((type) -> (Object) type).toList()));
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
