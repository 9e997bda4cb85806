package io.kindling.swipe;

import io.kindling.infra.http.Request;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServiceClient;
import org.jspecify.annotations.Nullable;

/**
 * The swipe API called as a user, over plain HTTP, so tests see the exact bytes a client
 * sees.
 */
public final class TestApi {

	private final ServiceClient http;

	public TestApi(int port) {
		this.http = new ServiceClient(port);
	}

	/** The client underneath, for requests the helpers here do not make. */
	public ServiceClient http() {
		return this.http;
	}

	public Response get(String path, long userId) {
		return this.http.get(path, TestTokens.forUser(userId));
	}

	public Response delete(String path, long userId) {
		return this.http.send("DELETE", path, TestTokens.forUser(userId), null);
	}

	public Response put(String path, long userId, String json) {
		return this.http.send("PUT", path, TestTokens.forUser(userId), json);
	}

	public Response post(String path, long userId, String json) {
		return this.http.send("POST", path, TestTokens.forUser(userId), json);
	}

	/** {@code POST /api/blocks} of {@code blockedId} by {@code userId}. */
	public Response block(long userId, long blockedId) {
		return post("/api/blocks", userId, "{\"user_id\":" + blockedId + "}");
	}

	public Response swipe(long userId, @Nullable String idempotencyKey, String json) {
		Request request = Request.of("POST", "/api/swipes").bearer(TestTokens.forUser(userId));
		if (idempotencyKey != null) {
			request = request.header("Idempotency-Key", idempotencyKey);
		}
		return this.http.send(request.json(json));
	}

	public Response swipe(long userId, String idempotencyKey, long targetUserId, String action) {
		return swipe(userId, idempotencyKey, "{\"target_user_id\":" + targetUserId + ",\"action\":\"" + action + "\"}");
	}

}
