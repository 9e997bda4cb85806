package io.kindling.infra.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import com.networknt.schema.Error;
import com.networknt.schema.ExecutionConfig;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.kindling.infra.http.Request;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServiceClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A service's OpenAPI description as the service serves it ({@code /v3/api-docs}), and
 * what each service's description test checks with it: that every endpoint is in it with
 * a summary, that real answers validate against it (status, media type, and the body
 * against the schema, with no property the schema does not name), and that the copy
 * committed under {@code docs/api/} is the same document.
 */
public final class ApiContract {

	/**
	 * {@code -Dkindling.api-docs.write=true} rewrites the committed copies from what the
	 * services serve.
	 */
	public static final String WRITE = "kindling.api-docs.write";

	private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

	private static final String COMPONENT_SCHEMAS = "#/components/schemas/";

	private static final SchemaRegistry SCHEMAS = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

	private static final ExecutionConfig CHECKED_FORMATS = ExecutionConfig.builder()
		.formatAssertionsEnabled(true)
		.locale(Locale.ROOT)
		.build();

	private final JsonNode description;

	/**
	 * The component schemas as {@code $defs}, each closed to properties it does not name.
	 */
	private final ObjectNode definitions;

	private final List<String> violations = Collections.synchronizedList(new ArrayList<>());

	private final Set<String> exercised = ConcurrentHashMap.newKeySet();

	public ApiContract(JsonNode description) {
		this.description = description;
		this.definitions = closedDefinitions(description);
	}

	/** The description the service behind {@code http} serves, to anyone. */
	public static ApiContract servedBy(ServiceClient http) {
		Response response = http.get("/v3/api-docs", null);
		if (response.status() != 200 || !response.header("Content-Type").orElse("").startsWith("application/json")) {
			throw new AssertionError("GET /v3/api-docs answered " + response.status() + " "
					+ response.header("Content-Type").orElse("") + ": " + response.body());
		}
		return new ApiContract(JSON.readTree(response.body()));
	}

	public JsonNode description() {
		return this.description;
	}

	/** Every operation of the description, as {@code GET /api/profiles/{user_id}}. */
	public Set<String> operations() {
		Set<String> operations = new TreeSet<>();
		for (Map.Entry<String, JsonNode> path : this.description.path("paths").properties()) {
			for (String method : path.getValue().propertyNames()) {
				operations.add(method.toUpperCase(Locale.ROOT) + " " + path.getKey());
			}
		}
		return operations;
	}

	/**
	 * Fails naming each of {@code handlers} ({@code GET /api/topics}, as the service maps
	 * them) that the description lacks, then each operation without a summary.
	 */
	public void assertDescribes(Collection<String> handlers) {
		if (handlers.isEmpty()) {
			throw new AssertionError("no handlers to compare with the description: the lookup found none");
		}
		Set<String> operations = operations();
		List<String> missing = handlers.stream()
			.map(ApiContract::withoutPatterns)
			.filter((handler) -> !operations.contains(handler))
			.sorted()
			.toList();
		if (!missing.isEmpty()) {
			throw new AssertionError("The OpenAPI description lacks " + missing
					+ ": a handler that springdoc does not see (hidden, or not a @RestController)? It describes "
					+ operations);
		}
		assertSummarised();
	}

	/**
	 * Swagger UI is open to anyone: {@code /swagger-ui.html} redirects to its page.
	 * @param http a client that sends no credentials
	 */
	public static void assertSwaggerUiServed(ServiceClient http) {
		Response ui = http.get("/swagger-ui.html", null);
		String page = ui.header("Location").orElse(null);
		if (ui.status() != 302 || page == null) {
			throw new AssertionError("/swagger-ui.html answered " + ui.status() + ", not a redirect to Swagger UI");
		}
		Response served = http.get(page, null);
		if (served.status() != 200 || !served.body().contains("swagger-ui")) {
			throw new AssertionError(page + " answered " + served.status() + " without Swagger UI");
		}
	}

	/**
	 * Fails naming each operation without a summary: Swagger UI would show it as a bare
	 * path.
	 */
	public void assertSummarised() {
		List<String> bare = new ArrayList<>();
		for (Map.Entry<String, JsonNode> path : this.description.path("paths").properties()) {
			for (Map.Entry<String, JsonNode> operation : path.getValue().properties()) {
				if (operation.getValue().path("summary").asString("").isBlank()) {
					bare.add(operation.getKey().toUpperCase(Locale.ROOT) + " " + path.getKey());
				}
			}
		}
		if (!bare.isEmpty()) {
			throw new AssertionError("The OpenAPI description gives no summary for " + bare.stream().sorted().toList()
					+ ": give each handler @Operation(summary = \"...\", description = \"...\")");
		}
	}

	/** Checks an answer against the description; {@link #assertAllConformed} reports. */
	public void check(Request request, Response response) {
		this.violations.addAll(violations(request.method(), request.path(), response));
	}

	/**
	 * What is wrong with this answer to {@code method path} by the description: an
	 * unknown path or method, a status or media type it does not list, a body its schema
	 * does not take. Empty when it conforms.
	 */
	public List<String> violations(String method, String path, Response response) {
		String call = method + " " + path + " -> " + response.status();
		String bare = path.split("\\?", 2)[0];
		Optional<String> template = template(bare);
		if (template.isEmpty()) {
			return List.of(call + ": no path of the description matches " + bare);
		}
		JsonNode operation = this.description.path("paths").path(template.get()).path(method.toLowerCase(Locale.ROOT));
		if (operation.isMissingNode()) {
			return List.of(call + ": the description has no " + method + " " + template.get());
		}
		this.exercised.add(method + " " + template.get());
		JsonNode responses = operation.path("responses");
		JsonNode documented = responses.has(String.valueOf(response.status()))
				? responses.path(String.valueOf(response.status())) : responses.path("default");
		if (documented.isMissingNode()) {
			return List.of(call + ": the description of " + method + " " + template.get() + " lists only "
					+ responses.propertyNames() + ": " + response.body());
		}
		JsonNode content = documented.path("content");
		if (response.body().isEmpty()) {
			return (content.isMissingNode() || content.isEmpty() || response.status() == 204) ? List.of()
					: List.of(call + ": no body, where the description promises " + content.propertyNames());
		}
		String mediaType = response.header("Content-Type")
			.map((type) -> type.split(";", 2)[0].strip().toLowerCase(Locale.ROOT))
			.orElse("");
		JsonNode media = content.path(mediaType);
		if (media.isMissingNode()) {
			return List.of(call + ": answered as " + mediaType + ", where the description lists "
					+ content.propertyNames() + ": " + response.body());
		}
		if (!mediaType.endsWith("json") || media.path("schema").isMissingNode()) {
			return List.of();
		}
		JsonNode body;
		try {
			body = JSON.readTree(response.body());
		}
		catch (RuntimeException ex) {
			return List.of(call + ": the body is not JSON: " + response.body());
		}
		List<Error> errors = schemaOf(media.path("schema")).validate(body,
				(context) -> context.setExecutionConfig(CHECKED_FORMATS));
		return errors.stream()
			.map((error) -> call + ": " + error.getInstanceLocation() + " " + error.getMessage() + " in "
					+ response.body())
			.toList();
	}

	/** Fails listing every answer given to {@link #check} that did not conform. */
	public void assertAllConformed() {
		if (!this.violations.isEmpty()) {
			throw new AssertionError(
					"Answers that do not conform to the OpenAPI description:\n" + String.join("\n", this.violations));
		}
	}

	/** The operations no checked answer came from. */
	public Set<String> unexercised() {
		Set<String> left = new TreeSet<>(operations());
		left.removeAll(this.exercised);
		return left;
	}

	/**
	 * Fails unless {@code file} holds this description as {@link #canonical} writes it;
	 * with {@code -Dkindling.api-docs.write=true} writes it there instead.
	 */
	public void assertCommittedCopy(Path file) {
		String served = canonical(this.description);
		try {
			if (Boolean.getBoolean(WRITE)) {
				Files.createDirectories(file.getParent());
				Files.writeString(file, served, StandardCharsets.UTF_8);
				return;
			}
			String committed = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
			if (!committed.equals(served)) {
				throw new AssertionError(file
						+ " is not what the service serves at /v3/api-docs (first difference at line "
						+ firstDifference(committed, served) + "). If the change to the API is meant, regenerate it: "
						+ "mvn -pl <module> -am verify -Dtest='ApiDescriptionIT' -Dsurefire.failIfNoSpecifiedTests=false -D"
						+ WRITE + "=true, and commit it");
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Keys sorted at every level, two-space indents, one trailing newline. */
	public static String canonical(JsonNode document) {
		return JSON.writeValueAsString(sorted(document)).replace("\r\n", "\n") + "\n";
	}

	/** The repository's root (where docs/ is), from the build's kindling.root. */
	public static Path repositoryRoot() {
		String root = System.getProperty("kindling.root");
		Path start = (root != null) ? Path.of(root) : Path.of("").toAbsolutePath();
		for (Path dir = start.toAbsolutePath(); dir != null; dir = dir.getParent()) {
			if (Files.isDirectory(dir.resolve("docs")) && Files.exists(dir.resolve("pom.xml"))) {
				return dir;
			}
		}
		throw new IllegalStateException("no docs/ above " + start);
	}

	private static JsonNode sorted(JsonNode node) {
		if (node instanceof ObjectNode object) {
			ObjectNode copy = JSON.createObjectNode();
			object.propertyNames()
				.stream()
				.sorted(Comparator.naturalOrder())
				.forEach((name) -> copy.set(name, sorted(object.get(name))));
			return copy;
		}
		if (node instanceof ArrayNode array) {
			ArrayNode copy = JSON.createArrayNode();
			array.forEach((item) -> copy.add(sorted(item)));
			return copy;
		}
		return node;
	}

	private static int firstDifference(String committed, String served) {
		String[] left = committed.split("\n", -1);
		String[] right = served.split("\n", -1);
		int line = 0;
		while (line < left.length && line < right.length && left[line].equals(right[line])) {
			line++;
		}
		return line + 1;
	}

	/** The path template that matches, a literal segment before a variable one. */
	private Optional<String> template(String path) {
		List<String> matching = new ArrayList<>();
		for (String template : this.description.path("paths").propertyNames()) {
			String regex = Pattern.quote(template).replaceAll("\\{[^/}]+}", "\\\\E[^/]+\\\\Q");
			if (path.matches(regex)) {
				matching.add(template);
			}
		}
		return matching.stream()
			.min(Comparator.comparingLong((template) -> template.chars().filter((c) -> c == '{').count()));
	}

	private Schema schemaOf(JsonNode schema) {
		ObjectNode root = JSON.createObjectNode();
		root.put("$schema", SpecificationVersion.DRAFT_2020_12.getDialectId());
		root.set("$defs", this.definitions);
		JsonNode own = toDefinitions(schema);
		if (own instanceof ObjectNode object) {
			root.setAll(object);
			if (isObjectSchema(object) && !object.has("additionalProperties")) {
				root.put("unevaluatedProperties", false);
			}
		}
		return SCHEMAS.getSchema(root);
	}

	/**
	 * Every object schema closed ({@code unevaluatedProperties: false}), so that a
	 * property the description does not name (a camelCase one, say) fails; except a
	 * supertype that its subtypes extend with allOf, which the subtypes close.
	 */
	private static ObjectNode closedDefinitions(JsonNode description) {
		ObjectNode definitions = (ObjectNode) toDefinitions(
				description.path("components").path("schemas").isMissingNode() ? JSON.createObjectNode()
						: description.path("components").path("schemas"));
		Set<String> extended = new HashSet<>();
		collectExtended(definitions, extended);
		for (Map.Entry<String, JsonNode> definition : definitions.properties()) {
			if (definition.getValue() instanceof ObjectNode schema && !extended.contains(definition.getKey())
					&& isObjectSchema(schema) && !schema.has("additionalProperties")) {
				schema.put("unevaluatedProperties", false);
			}
		}
		return definitions;
	}

	private static void collectExtended(JsonNode node, Set<String> extended) {
		if (node.has("allOf")) {
			for (JsonNode part : node.get("allOf")) {
				String ref = part.path("$ref").asString("");
				if (ref.startsWith("#/$defs/")) {
					extended.add(ref.substring("#/$defs/".length()));
				}
			}
		}
		for (JsonNode child : node) {
			collectExtended(child, extended);
		}
	}

	private static boolean isObjectSchema(JsonNode schema) {
		return schema.has("properties") || schema.has("allOf") || schema.has("oneOf") || schema.has("anyOf")
				|| "object".equals(schema.path("type").asString(""));
	}

	private static JsonNode toDefinitions(JsonNode schema) {
		return JSON.readTree(JSON.writeValueAsString(schema).replace("\"" + COMPONENT_SCHEMAS, "\"#/$defs/"));
	}

	/** {@code /api/x/{id:\d+}} as the description writes it: {@code /api/x/{id}}. */
	private static String withoutPatterns(String handler) {
		return handler.replaceAll("\\{([^}:]+):[^}]*}", "{$1}");
	}

}
