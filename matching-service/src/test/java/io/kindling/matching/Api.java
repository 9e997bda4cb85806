package io.kindling.matching;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A plain HTTP client for one instance of the service, as a real client would call it.
 */
public final class Api {

	public static final JsonMapper JSON = JsonMapper.builder().build();

	private static final HttpClient HTTP = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	private final String base;

	public Api(int port) {
		this.base = "http://127.0.0.1:" + port;
	}

	public String base() {
		return this.base;
	}

	public Response send(String method, String path, @Nullable String token, @Nullable String body, String... headers) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(this.base + path))
			.timeout(Duration.ofSeconds(30))
			.method(method,
					(body != null) ? HttpRequest.BodyPublishers.ofString(body) : HttpRequest.BodyPublishers.noBody());
		if (body != null && !List.of(headers).contains("Content-Type")) {
			request.header("Content-Type", "application/json");
		}
		if (token != null) {
			request.header("Authorization", "Bearer " + token);
		}
		if (headers.length > 0) {
			request.headers(headers);
		}
		try {
			HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
			return new Response(response.statusCode(), response, response.body());
		}
		catch (IOException ex) {
			throw new IllegalStateException(method + " " + path + " failed", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	public String session() {
		Response response = send("POST", "/api/sessions", null, null);
		assertThat(response.status()).as(response.body()).isEqualTo(201);
		return response.json().get("token").asString();
	}

	public Response join(String token, long topicId, int size) {
		return send("POST", "/api/matching", token, "{\"topic_id\": " + topicId + ", \"size\": " + size + "}");
	}

	public Response status(String token) {
		return send("GET", "/api/matching", token, null);
	}

	public Response leave(String token) {
		return send("DELETE", "/api/matching", token, null);
	}

	public record Response(int status, HttpResponse<String> raw, String body) {

		public JsonNode json() {
			return JSON.readTree(this.body);
		}

		public String field(String name) {
			JsonNode node = json().get(name);
			return (node != null) ? node.asString() : "";
		}

		public @Nullable String header(String name) {
			return this.raw.headers().firstValue(name).orElse(null);
		}

	}

}
