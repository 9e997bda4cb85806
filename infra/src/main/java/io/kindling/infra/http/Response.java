package io.kindling.infra.http;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * An answer as the client saw it: the status, the headers (names in lower case, each with
 * its values in order) and the body as UTF-8 text.
 */
public record Response(int status, Map<String, List<String>> headers, String body) {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	public Response {
		headers = Map.copyOf(headers);
	}

	/** The header's first value, whatever the case of its name. */
	public Optional<String> header(String name) {
		List<String> values = this.headers.get(name.toLowerCase(Locale.ROOT));
		return (values == null || values.isEmpty()) ? Optional.empty() : Optional.of(values.get(0));
	}

	/** The body parsed as JSON. */
	public JsonNode json() {
		return JSON.readTree(this.body);
	}

	/** A top-level field of the JSON body as text; empty when it is absent. */
	public String field(String name) {
		JsonNode node = json().get(name);
		return (node != null) ? node.asString() : "";
	}

}
