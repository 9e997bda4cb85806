package io.kindling.infra.test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.kindling.infra.http.Request;
import io.kindling.infra.http.Response;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** What each service's description test relies on: that a wrong answer is caught. */
class ApiContractTests {

	private static final String DESCRIPTION = """
			{"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
			 "paths": {
			  "/api/things/{id}": {"get": {"summary": "Get a thing", "responses": {
			   "200": {"description": "OK", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}},
			   "404": {"description": "No such thing", "content": {"application/problem+json": {"schema": {"allOf": [
			     {"$ref": "#/components/schemas/Problem"},
			     {"properties": {"type": {"type": "string", "enum": ["https://kindling.io/problems/no-such-thing"]}}}]}}}}}}},
			  "/api/things/latest": {"delete": {"summary": "Forget the latest thing", "responses": {"204": {"description": "Gone"}}}}},
			 "components": {"schemas": {
			  "Thing": {"type": "object", "properties": {"thing_id": {"type": "integer"}, "name": {"type": "string"},
			    "note": {"type": ["string", "null"]}, "created_at": {"type": "string", "format": "date-time"}},
			   "required": ["thing_id", "name", "created_at"]},
			  "Problem": {"type": "object", "properties": {"type": {"type": "string"}, "title": {"type": "string"},
			    "status": {"type": "integer"}, "detail": {"type": "string"}, "instance": {"type": "string"}},
			   "required": ["type", "title", "status"]}}}}
			""";

	private final ApiContract contract = new ApiContract(JsonMapper.builder().build().readTree(DESCRIPTION));

	@Test
	void anAnswerAsDescribedConforms() {
		assertThat(this.contract.violations("GET", "/api/things/7?x=1", json(200,
				"{\"thing_id\": 7, \"name\": \"a\", \"note\": null, \"created_at\": \"2026-12-05T03:00:00Z\"}")))
			.isEmpty();
		assertThat(this.contract.violations("GET", "/api/things/7", problem(404, "no-such-thing"))).isEmpty();
		assertThat(this.contract.violations("DELETE", "/api/things/latest", new Response(204, Map.of(), ""))).isEmpty();
		assertThat(this.contract.unexercised()).isEmpty();
	}

	@Test
	void aCamelCasePropertyANullOrABadTimeDoesNotConform() {
		assertThat(this.contract.violations("GET", "/api/things/7",
				json(200, "{\"thingId\": 7, \"name\": \"a\", \"created_at\": \"2026-12-05T03:00:00Z\"}")))
			.anyMatch((violation) -> violation.contains("thingId"))
			.anyMatch((violation) -> violation.contains("thing_id"));
		assertThat(this.contract.violations("GET", "/api/things/7",
				json(200, "{\"thing_id\": 7, \"name\": null, \"created_at\": \"2026-12-05T03:00:00Z\"}")))
			.anyMatch((violation) -> violation.contains("/name"));
		assertThat(this.contract.violations("GET", "/api/things/7",
				json(200, "{\"thing_id\": 7, \"name\": \"a\", \"created_at\": \"yesterday\"}")))
			.anyMatch((violation) -> violation.contains("/created_at"));
	}

	@Test
	void anUndescribedStatusMediaTypeOrProblemTypeDoesNotConform() {
		assertThat(this.contract.violations("GET", "/api/things/7", problem(409, "already-there")))
			.singleElement(InstanceOfAssertFactories.STRING)
			.contains("lists only [200, 404]");
		assertThat(this.contract.violations("GET", "/api/things/7", problem(404, "not-found")))
			.anyMatch((violation) -> violation.contains("/type"));
		assertThat(this.contract.violations("GET", "/api/things/7",
				new Response(200, Map.of("content-type", List.of("text/html")), "<html>")))
			.singleElement(InstanceOfAssertFactories.STRING)
			.contains("answered as text/html");
		assertThat(this.contract.violations("POST", "/api/things/7", json(200, "{}"))).isNotEmpty();
		assertThat(this.contract.violations("GET", "/api/other", json(200, "{}"))).isNotEmpty();
		this.contract.check(Request.get("/api/things/7"), problem(409, "already-there"));
		assertThatExceptionOfType(AssertionError.class).isThrownBy(this.contract::assertAllConformed)
			.withMessageContaining("GET /api/things/7 -> 409");
	}

	@Test
	void aHandlerTheDescriptionLacksFails() {
		this.contract.assertDescribes(List.of("GET /api/things/{id:\\d+}", "DELETE /api/things/latest"));
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> this.contract.assertDescribes(List.of("GET /api/things/{id}", "PUT /api/things/{id}")))
			.withMessageContaining("lacks [PUT /api/things/{id}]");
		// a lookup that found no handler proves nothing
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> this.contract.assertDescribes(List.of()))
			.withMessageContaining("found none");
	}

	@Test
	void anOperationWithoutASummaryFails() {
		this.contract.assertSummarised();
		ObjectNode unsummarised = (ObjectNode) this.contract.description().deepCopy();
		((ObjectNode) unsummarised.at("/paths/~1api~1things~1latest/delete")).remove("summary");
		((ObjectNode) unsummarised.at("/paths/~1api~1things~1{id}/get")).put("summary", " ");
		ApiContract bare = new ApiContract(unsummarised);
		assertThatExceptionOfType(AssertionError.class).isThrownBy(bare::assertSummarised)
			.withMessageContaining("no summary for [DELETE /api/things/latest, GET /api/things/{id}]");
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> bare.assertDescribes(List.of("GET /api/things/{id}", "DELETE /api/things/latest")))
			.withMessageContaining("no summary for");
	}

	@Test
	void theCommittedCopyMustBeTheServedDocumentAndCanBeRewritten(@TempDir Path dir) throws IOException {
		Path copy = dir.resolve("docs/api/thing.json");
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> this.contract.assertCommittedCopy(copy))
			.withMessageContaining("-Dkindling.api-docs.write=true");
		System.setProperty(ApiContract.WRITE, "true");
		try {
			this.contract.assertCommittedCopy(copy);
		}
		finally {
			System.clearProperty(ApiContract.WRITE);
		}
		this.contract.assertCommittedCopy(copy);
		String written = Files.readString(copy);
		assertThat(written).startsWith("{\n  \"components\"").endsWith("}\n");
		Files.writeString(copy, written.replace("\"name\"", "\"title\""));
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> this.contract.assertCommittedCopy(copy))
			.withMessageContaining("first difference at line");
	}

	private static Response json(int status, String body) {
		return new Response(status, Map.of("content-type", List.of("application/json")), body);
	}

	private static Response problem(int status, String slug) {
		return new Response(status, Map.of("content-type", List.of("application/problem+json")),
				"{\"type\": \"https://kindling.io/problems/" + slug + "\", \"title\": \"t\", \"status\": " + status
						+ ", \"instance\": \"/api/things/7\"}");
	}

}
