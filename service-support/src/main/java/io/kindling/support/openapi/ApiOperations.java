package io.kindling.support.openapi;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import io.kindling.support.web.ProblemType;
import io.kindling.support.web.Refusal;
import io.kindling.support.web.Refusals;
import io.kindling.support.web.Refuses;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.examples.Example;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.JsonSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import org.springdoc.core.customizers.GlobalOperationCustomizer;

import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter;

/**
 * Each endpoint's operation: a stable id and tag from its controller, the security the
 * service names for it, an event stream as {@code text/event-stream}, and a problem
 * response for every refusal it can answer with, each status listing its types.
 */
final class ApiOperations implements GlobalOperationCustomizer {

	static final String PROBLEM_JSON = "application/problem+json";

	/** What the web edge answers any endpoint with. */
	private static final Set<ProblemType> EVERY_ENDPOINT = EnumSet.of(ProblemType.BAD_REQUEST,
			ProblemType.INVALID_REQUEST, ProblemType.ORIGIN_NOT_ALLOWED, ProblemType.NOT_ACCEPTABLE,
			ProblemType.INTERNAL_ERROR, ProblemType.UNAVAILABLE);

	/** And what it answers an endpoint that takes a body with. */
	private static final Set<ProblemType> WITH_A_BODY = EnumSet.of(ProblemType.UNREADABLE_REQUEST_BODY,
			ProblemType.CONTENT_TOO_LARGE, ProblemType.UNSUPPORTED_MEDIA_TYPE);

	private final ServiceApi service;

	private final Refusals declared;

	ApiOperations(ServiceApi service, Refusals declared) {
		this.service = service;
		this.declared = declared;
	}

	@Override
	public Operation customize(Operation operation, HandlerMethod handler) {
		String controller = handler.getBeanType().getSimpleName().replaceFirst("Controller$", "");
		operation.setOperationId(Character.toLowerCase(controller.charAt(0)) + controller.substring(1)
				+ Character.toUpperCase(handler.getMethod().getName().charAt(0))
				+ handler.getMethod().getName().substring(1));
		operation.setTags(List.of(words(controller)));
		List<String> schemes = this.service.security(handler, path(handler));
		operation.setSecurity(schemes.isEmpty() ? null
				: schemes.stream().map((name) -> new SecurityRequirement().addList(name)).toList());
		if (ResponseBodyEmitter.class.isAssignableFrom(handler.getMethod().getReturnType())) {
			eventStream(operation);
		}
		Set<ProblemType> edge = EnumSet.copyOf(EVERY_ENDPOINT);
		if (operation.getRequestBody() != null) {
			edge.addAll(WITH_A_BODY);
		}
		if (!schemes.isEmpty()) {
			edge.add(ProblemType.UNAUTHENTICATED);
		}
		Set<Refusal> refusals = new LinkedHashSet<>(edge);
		Refuses own = AnnotatedElementUtils.findMergedAnnotation(handler.getMethod(), Refuses.class);
		if (own != null) {
			for (String slug : own.value()) {
				refusals.add(declared(slug, handler));
			}
		}
		problemResponses(operation, refusals);
		return operation;
	}

	private Refusal declared(String slug, HandlerMethod handler) {
		try {
			return this.declared.bySlug(slug);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalStateException("@Refuses on " + handler.getShortLogMessage() + ": " + ex.getMessage(), ex);
		}
	}

	private static void eventStream(Operation operation) {
		ApiResponses responses = operation.getResponses();
		ApiResponse ok = responses.computeIfAbsent("200", (status) -> new ApiResponse());
		ok.setDescription("A stream of server-sent events, open until the server ends it");
		ok.setContent(new Content().addMediaType("text/event-stream",
				new MediaType().schema(new JsonSchema().types(Set.of("string")))));
	}

	private static void problemResponses(Operation operation, Set<Refusal> refusals) {
		Map<Integer, List<Refusal>> byStatus = new TreeMap<>();
		for (Refusal type : refusals) {
			byStatus.computeIfAbsent(type.status().value(), (status) -> new ArrayList<>()).add(type);
		}
		ApiResponses responses = operation.getResponses();
		byStatus.forEach((status, types) -> {
			Schema<?> typeOfThese = new JsonSchema().types(Set.of("string"))
				._enum(types.stream().map((type) -> (Object) type.uri().toString()).toList());
			Schema<?> schema = new JsonSchema().allOf(List.of(new JsonSchema().$ref(ApiDocument.PROBLEM),
					new JsonSchema().properties(new LinkedHashMap<>(Map.of("type", typeOfThese)))));
			MediaType media = new MediaType().schema(schema);
			for (Refusal type : types) {
				Map<String, Object> example = new LinkedHashMap<>();
				example.put("type", type.uri().toString());
				example.put("title", type.title());
				example.put("status", status);
				media.addExamples(type.slug(), new Example().summary(type.title()).value(example));
			}
			ApiResponse response = new ApiResponse()
				.description(String.join("; ", types.stream().map(Refusal::title).toList()))
				.content(new Content().addMediaType(PROBLEM_JSON, media));
			if (status == 401) {
				response.addHeaderObject("WWW-Authenticate",
						new Header().description("Bearer").schema(new JsonSchema().types(Set.of("string"))));
			}
			if (status == 429 || status == 503) {
				response.addHeaderObject("Retry-After", new Header().description("Seconds to wait before a retry")
					.schema(new JsonSchema().types(Set.of("integer"))));
			}
			responses.addApiResponse(String.valueOf(status), response);
		});
	}

	/** The first path the handler is mapped to, its controller's prefix included. */
	static String path(HandlerMethod handler) {
		RequestMapping onType = AnnotatedElementUtils.findMergedAnnotation(handler.getBeanType(), RequestMapping.class);
		RequestMapping onMethod = AnnotatedElementUtils.findMergedAnnotation(handler.getMethod(), RequestMapping.class);
		String prefix = (onType != null && onType.path().length > 0) ? onType.path()[0] : "";
		String own = (onMethod != null && onMethod.path().length > 0) ? onMethod.path()[0] : "";
		return prefix + own;
	}

	/** {@code TopicAdmin} as {@code Topic admin}. */
	private static String words(String camelCase) {
		String spaced = camelCase.replaceAll("([a-z0-9])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT);
		return Character.toUpperCase(spaced.charAt(0)) + spaced.substring(1);
	}

}
