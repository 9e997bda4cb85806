package io.kindling.infra.http;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The client against the JDK's own HTTP server: the wire formats it must read and write.
 */
class ServiceClientTests {

	private HttpServer server;

	private ServiceClient client;

	/** The remote ports the server saw: one per connection the client opened. */
	private final Set<Integer> connections = ConcurrentHashMap.newKeySet();

	@BeforeEach
	void start() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.setExecutor(Executors.newFixedThreadPool(8));
		this.server.createContext("/echo", (exchange) -> {
			this.connections.add(exchange.getRemoteAddress().getPort());
			byte[] body = exchange.getRequestBody().readAllBytes();
			String answer = exchange.getRequestMethod() + " " + exchange.getRequestURI() + " "
					+ exchange.getRequestHeaders().getFirst("Authorization") + " "
					+ exchange.getRequestHeaders().getFirst("Content-Type") + " " + body.length + " "
					+ new String(body, StandardCharsets.UTF_8);
			send(exchange, 200, answer, false);
		});
		this.server.createContext("/chunked", (exchange) -> send(exchange, 201, "x".repeat(50_000), true));
		this.server.createContext("/twice", (exchange) -> {
			exchange.getResponseHeaders().add("Set-Thing", "one");
			exchange.getResponseHeaders().add("Set-Thing", "two");
			send(exchange, 200, "{\"name\":\"ana\"}", false);
		});
		this.server.createContext("/empty", (exchange) -> {
			exchange.sendResponseHeaders(204, -1);
			exchange.close();
		});
		this.server.createContext("/events", (exchange) -> {
			exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
			exchange.sendResponseHeaders(200, 0);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(":subscribed\n\n".getBytes(StandardCharsets.UTF_8));
				out.flush();
				out.write("event:matched\ndata:{\"a\":1}\n\n".getBytes(StandardCharsets.UTF_8));
				out.flush();
			}
		});
		this.server.start();
		this.client = new ServiceClient(this.server.getAddress().getPort(), Duration.ofSeconds(10));
	}

	@AfterEach
	void stop() {
		this.server.stop(0);
	}

	private static void send(HttpExchange exchange, int status, String body, boolean chunked) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		exchange.sendResponseHeaders(status, chunked ? 0 : bytes.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(bytes);
		}
	}

	@Test
	void sendsTheTokenAndAJsonBodyAndReadsTheAnswer() {
		Response response = this.client.send("POST", "/echo?q=%00", "abc", "{\"k\":1}");

		assertThat(response.status()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("POST /echo?q=%00 Bearer abc application/json 7 {\"k\":1}");
	}

	@Test
	void sendsABodyInChunks() {
		byte[] body = "y".repeat(20_000).getBytes(StandardCharsets.UTF_8);

		Response response = this.client
			.send(Request.of("PUT", "/echo").header("Content-Type", "text/plain").body(body).inChunks());

		assertThat(response.body()).startsWith("PUT /echo null text/plain 20000 yyy");
	}

	@Test
	void readsAChunkedAnswerAnEmptyOneAndRepeatedHeaders() {
		Response chunked = this.client.get("/chunked", null);
		Response empty = this.client.send("DELETE", "/empty", null, null);
		Response twice = this.client.get("/twice", null);

		assertThat(chunked.status()).isEqualTo(201);
		assertThat(chunked.body()).hasSize(50_000);
		assertThat(empty.status()).isEqualTo(204);
		assertThat(empty.body()).isEmpty();
		assertThat(twice.headers().get("set-thing")).containsExactly("one", "two");
		assertThat(twice.header("SET-THING")).hasValue("one");
		assertThat(twice.field("name")).isEqualTo("ana");
	}

	@Test
	void threadsShareKeepAliveConnections() throws Exception {
		try (ExecutorService threads = Executors.newFixedThreadPool(4)) {
			List<Future<Integer>> statuses = new ArrayList<>();
			for (int i = 0; i < 200; i++) {
				statuses.add(threads.submit(() -> this.client.get("/echo", null).status()));
			}
			for (Future<Integer> status : statuses) {
				assertThat(status.get(30, TimeUnit.SECONDS)).isEqualTo(200);
			}
		}

		assertThat(this.connections).hasSizeBetween(1, 4);
	}

	@Test
	void anEventStreamGivesItsLinesAsTheyCome() throws Exception {
		try (EventStream stream = this.client.events("/events", "abc")) {
			assertThat(stream.status()).isEqualTo(200);
			assertThat(stream.nextLine(Duration.ofSeconds(5))).isEqualTo(":subscribed");
			assertThat(stream.nextLine(Duration.ofSeconds(5))).isEmpty();
			assertThat(stream.nextLine(Duration.ofSeconds(5))).isEqualTo("event:matched");
			assertThat(stream.nextLine(Duration.ofSeconds(5))).isEqualTo("data:{\"a\":1}");
		}
	}

}
