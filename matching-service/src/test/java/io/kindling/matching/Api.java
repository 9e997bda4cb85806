package io.kindling.matching;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A plain HTTP client for one instance of the service, as a real client would call it.
 */
public final class Api {

	public static final JsonMapper JSON = JsonMapper.builder().build();

	private final String base;

	public Api(int port) {
		this.base = "http://127.0.0.1:" + port;
	}

	public String base() {
		return this.base;
	}

	public Response send(String method, String path, @Nullable String token, @Nullable String body, String... headers) {
		try {
			// HttpURLConnection, not java.net.http: a thousand concurrent clients
			// deadlocked the JDK client's selector, and it dropped the body of a 401 to a
			// POST. Not in streaming mode, so a 401 still gives its body.
			HttpURLConnection connection = (HttpURLConnection) URI.create(this.base + path).toURL().openConnection();
			connection.setConnectTimeout(5_000);
			connection.setReadTimeout(30_000);
			connection.setRequestMethod(method);
			if (body != null && !List.of(headers).contains("Content-Type")) {
				connection.setRequestProperty("Content-Type", "application/json");
			}
			if (token != null) {
				connection.setRequestProperty("Authorization", "Bearer " + token);
			}
			for (int i = 0; i + 1 < headers.length; i += 2) {
				connection.setRequestProperty(headers[i], headers[i + 1]);
			}
			if (body != null) {
				connection.setDoOutput(true);
				byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
				try (OutputStream out = connection.getOutputStream()) {
					out.write(bytes);
				}
			}
			int status = connection.getResponseCode();
			InputStream in = (status >= 400) ? connection.getErrorStream() : connection.getInputStream();
			String text = "";
			if (in != null) {
				try (in) {
					text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
				}
			}
			return new Response(status, connection.getHeaderFields(), text);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(method + " " + path + " failed", ex);
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

	public record Response(int status, Map<String, List<String>> headers, String body) {

		public JsonNode json() {
			return JSON.readTree(this.body);
		}

		public String field(String name) {
			JsonNode node = json().get(name);
			return (node != null) ? node.asString() : "";
		}

		public @Nullable String header(String name) {
			return this.headers.entrySet()
				.stream()
				.filter((entry) -> entry.getKey() != null && entry.getKey().equalsIgnoreCase(name))
				.map((entry) -> entry.getValue().get(0))
				.findFirst()
				.orElse(null);
		}

	}

}
