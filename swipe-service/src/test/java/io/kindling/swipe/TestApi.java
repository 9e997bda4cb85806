package io.kindling.swipe;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.jspecify.annotations.Nullable;

/** Plain HTTP against the running service, so tests see the exact bytes a client sees. */
public final class TestApi {

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final String base;

	public TestApi(int port) {
		this.base = "http://127.0.0.1:" + port;
	}

	public HttpResponse<String> get(String path, long userId) {
		return send(request(path, TestTokens.forUser(userId)).GET().build());
	}

	public HttpResponse<String> delete(String path, long userId) {
		return send(request(path, TestTokens.forUser(userId)).DELETE().build());
	}

	public HttpResponse<String> put(String path, long userId, String json) {
		return send(request(path, TestTokens.forUser(userId)).header("Content-Type", "application/json")
			.PUT(HttpRequest.BodyPublishers.ofString(json))
			.build());
	}

	public HttpResponse<String> post(String path, long userId, String json) {
		return send(request(path, TestTokens.forUser(userId)).header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(json))
			.build());
	}

	/** {@code POST /api/blocks} of {@code blockedId} by {@code userId}. */
	public HttpResponse<String> block(long userId, long blockedId) {
		return post("/api/blocks", userId, "{\"user_id\":" + blockedId + "}");
	}

	public HttpResponse<String> swipe(long userId, @Nullable String idempotencyKey, String json) {
		HttpRequest.Builder request = request("/api/swipes", TestTokens.forUser(userId))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(json));
		if (idempotencyKey != null) {
			request.header("Idempotency-Key", idempotencyKey);
		}
		return send(request.build());
	}

	public HttpResponse<String> swipe(long userId, String idempotencyKey, long targetUserId, String action) {
		return swipe(userId, idempotencyKey, "{\"target_user_id\":" + targetUserId + ",\"action\":\"" + action + "\"}");
	}

	public HttpRequest.Builder request(String path, @Nullable String token) {
		HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(this.base + path))
			.timeout(Duration.ofSeconds(60));
		if (token != null) {
			builder.header("Authorization", "Bearer " + token);
		}
		return builder;
	}

	public HttpResponse<String> send(HttpRequest request) {
		try {
			return this.http.send(request, HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
