package io.kindling.matching;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.kindling.infra.http.Request;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A room's socket as a client holds it (the JDK's WebSocket client): the frames it got,
 * in order, and how it was closed.
 */
final class RoomSocket implements WebSocket.Listener, AutoCloseable {

	private static final HttpClient CLIENT = HttpClient.newHttpClient();

	private final BlockingQueue<JsonNode> frames = new LinkedBlockingQueue<>();

	private final StringBuilder partial = new StringBuilder();

	private final CompletableFuture<Integer> closed = new CompletableFuture<>();

	private @Nullable WebSocket socket;

	/** Opens {@code /ws/rooms/<id><query>} with the session's bearer token. */
	static RoomSocket open(int port, long conversationId, @Nullable String token, String query) {
		RoomSocket client = new RoomSocket();
		WebSocket.Builder builder = CLIENT.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10));
		if (token != null) {
			builder.header("Authorization", "Bearer " + token);
		}
		client.socket = builder
			.buildAsync(URI.create("ws://127.0.0.1:" + port + "/ws/rooms/" + conversationId + query), client)
			.join();
		return client;
	}

	/**
	 * A WebSocket handshake as a plain request, for the answers that refuse it (which
	 * come before the upgrade, as any answer of the service).
	 */
	static Request handshake(String path, @Nullable String token) {
		return Request.get(path)
			.bearer(token)
			.header("Connection", "Upgrade")
			.header("Upgrade", "websocket")
			.header("Sec-WebSocket-Version", "13")
			.header("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==");
	}

	@Override
	public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
		this.partial.append(data);
		if (last) {
			this.frames.add(Api.JSON.readTree(this.partial.toString()));
			this.partial.setLength(0);
		}
		webSocket.request(1);
		return null;
	}

	@Override
	public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
		this.closed.complete(statusCode);
		return null;
	}

	@Override
	public void onError(WebSocket webSocket, Throwable error) {
		this.closed.complete(-1);
	}

	void send(String frame) {
		this.socket.sendText(frame, true).join();
	}

	/** Sends a message frame. */
	void say(String text, String clientMessageId) {
		send(Api.JSON.createObjectNode()
			.put("type", "message")
			.put("text", text)
			.put("client_message_id", clientMessageId)
			.toString());
	}

	/** The next frame. */
	JsonNode next() throws InterruptedException {
		JsonNode frame = this.frames.poll(10, TimeUnit.SECONDS);
		assertThat(frame).as("a frame within 10 s").isNotNull();
		return frame;
	}

	/** The next frame, which must be of this type. */
	JsonNode next(String type) throws InterruptedException {
		JsonNode frame = next();
		assertThat(frame.get("type").asString()).as("%s", frame).isEqualTo(type);
		return frame;
	}

	void assertNothingWithin(Duration wait) throws InterruptedException {
		JsonNode frame = this.frames.poll(wait.toMillis(), TimeUnit.MILLISECONDS);
		assertThat(frame).as("no frame").isNull();
	}

	/** The close code the server sent, once it closed the socket. */
	int awaitClosed() {
		return this.closed.orTimeout(10, TimeUnit.SECONDS).join();
	}

	boolean isClosed() {
		return this.closed.isDone();
	}

	/**
	 * Closes the socket, unless the server did: the client answers a server's close by
	 * itself, and a close of ours sent meanwhile fails with "Output closed".
	 */
	@Override
	public void close() {
		if (this.socket == null || this.closed.isDone() || this.socket.isOutputClosed()) {
			return;
		}
		try {
			this.socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye").join();
		}
		catch (CompletionException ex) {
			// the server's close crossed ours, and the client's answer closed the output
			if (!this.socket.isOutputClosed()) {
				throw ex;
			}
		}
	}

}
