package io.kindling.support.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;

import io.kindling.infra.test.fuzz.RawHttp;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * One regression test per class of bad input: each ends as a 4xx problem detail of its
 * documented type (sent over a raw socket, since an HTTP client refuses to send most of
 * them), and a fault of ours as a 500 or 503 that says nothing of its insides.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.jackson.property-naming-strategy=SNAKE_CASE", "kindling.web.max-body-size=4KB" })
class WebEdgeTests {

	static final String VALID = "{\"topic_id\":1,\"size\":2,\"action\":\"LIKE\"}";

	@LocalServerPort
	int port;

	static Stream<Arguments> inputClasses() {
		return Stream.of(
				arguments("a fraction for an integer", json("{\"topic_id\":1,\"size\":2.5,\"action\":\"LIKE\"}"), 400,
						"unreadable-request-body"),
				arguments("a string for an integer", json("{\"topic_id\":1,\"size\":\"2\",\"action\":\"LIKE\"}"), 400,
						"unreadable-request-body"),
				arguments("a boolean for an integer", json("{\"topic_id\":true,\"size\":2,\"action\":\"LIKE\"}"), 400,
						"unreadable-request-body"),
				arguments("a number out of range", json("{\"topic_id\":1,\"size\":99999999999,\"action\":\"LIKE\"}"),
						400, "unreadable-request-body"),
				arguments("a huge number", json("{\"topic_id\":1e400,\"size\":2,\"action\":\"LIKE\"}"), 400,
						"unreadable-request-body"),
				arguments("a duplicate key", json("{\"topic_id\":1,\"topic_id\":2,\"size\":2,\"action\":\"LIKE\"}"),
						400, "unreadable-request-body"),
				arguments("trailing tokens", json(VALID + "{}"), 400, "unreadable-request-body"),
				arguments("an unknown enum value", json("{\"topic_id\":1,\"size\":2,\"action\":\"LOVE\"}"), 400,
						"unreadable-request-body"),
				arguments("an enum by its number", json("{\"topic_id\":1,\"size\":2,\"action\":0}"), 400,
						"unreadable-request-body"),
				arguments("a body that is not JSON", json("hello"), 400, "unreadable-request-body"),
				arguments("an empty body", json(""), 400, "unreadable-request-body"),
				arguments("JSON nested past the limit", json("[".repeat(1500) + "]".repeat(1500)), 400,
						"unreadable-request-body"),
				arguments("a body that is not UTF-8", utf8Broken(), 400, "unreadable-request-body"),
				arguments("a missing field", json("{\"topic_id\":1,\"action\":\"LIKE\"}"), 400, "invalid-request"),
				arguments("a field out of its range", json("{\"topic_id\":1,\"size\":7,\"action\":\"LIKE\"}"), 400,
						"invalid-request"),
				arguments("multipart without a boundary", body("multipart/form-data", VALID), 415,
						"unsupported-media-type"),
				arguments("multipart with a boundary", body("multipart/form-data; boundary=x", VALID), 415,
						"unsupported-media-type"),
				arguments("an unsupported media type", body("text/plain", VALID), 415, "unsupported-media-type"),
				arguments("a media type that does not parse", body("application/", VALID), 415,
						"unsupported-media-type"),
				arguments("a wildcard media type", body("*/*", VALID), 415, "unsupported-media-type"),
				arguments("an unknown charset", body("application/json; charset=nope", VALID), 415,
						"unsupported-media-type"),
				arguments("a body over the limit, declared", json("{\"x\":\"" + "a".repeat(5000) + "\"}"), 413,
						"content-too-large"),
				arguments("a body over the limit, chunked", chunked("{\"x\":\"" + "a".repeat(5000) + "\"}"), 413,
						"content-too-large"),
				arguments("%00 in the path", raw("GET /page/%00 HTTP/1.1\r\n"), 400, "bad-request"),
				arguments("%00 at the end of a path", raw("GET /page%00 HTTP/1.1\r\n"), 400, "bad-request"),
				arguments("bad percent-encoding in the path", raw("GET /page/%ZZ HTTP/1.1\r\n"), 400, "bad-request"),
				arguments("an encoded slash in the path", raw("GET /page/%2F HTTP/1.1\r\n"), 400, "bad-request"),
				arguments("a control character in the path", raw("GET /pa\u0001ge HTTP/1.1\r\n"), 400, "bad-request"),
				arguments("bad percent-encoding in a query parameter", raw("GET /page?limit=%ZZ HTTP/1.1\r\n"), 400,
						"bad-request"),
				arguments("a query parameter of the wrong type", raw("GET /page?limit=abc HTTP/1.1\r\n"), 400,
						"invalid-request"),
				arguments("a query parameter out of range", raw("GET /page?limit=0 HTTP/1.1\r\n"), 400,
						"invalid-request"),
				arguments("headers too large", raw("GET /page HTTP/1.1\r\nX-Big: " + "a".repeat(20_000) + "\r\n"), 400,
						"bad-request"),
				arguments("a control character in a header", raw("GET /page HTTP/1.1\r\nX-Odd: a\u0001b\r\n"), 400,
						"bad-request"),
				arguments("a header without a name", raw("GET /page HTTP/1.1\r\n: nameless\r\n"), 400, "bad-request"),
				arguments("a Content-Length that is not a number",
						raw("POST /join HTTP/1.1\r\nContent-Length: abc\r\n"), 400, "bad-request"),
				arguments("an unknown transfer coding", raw("POST /join HTTP/1.1\r\nTransfer-Encoding: gzip\r\n"), 400,
						"bad-request"),
				arguments("an unknown method", raw("FOO /page HTTP/1.1\r\n"), 405, "method-not-allowed"),
				arguments("a method the path does not take", raw("DELETE /page HTTP/1.1\r\n"), 405,
						"method-not-allowed"),
				arguments("TRACE", raw("TRACE /page HTTP/1.1\r\n"), 405, "method-not-allowed"),
				arguments("CONNECT", raw("CONNECT /page HTTP/1.1\r\n"), 400, "bad-request"),
				arguments("an unknown path", raw("GET /nowhere HTTP/1.1\r\n"), 404, "not-found"),
				arguments("the error page asked for directly", raw("GET /error HTTP/1.1\r\n"), 404, "not-found"),
				arguments("an Accept the endpoint cannot answer", raw("GET /page HTTP/1.1\r\nAccept: image/png\r\n"),
						406, "not-acceptable"),
				arguments("a bug of ours (an IllegalArgumentException)", raw("GET /bug HTTP/1.1\r\n"), 500,
						"internal-error"),
				arguments("a Redis cross-slot error, a bug and not an outage", raw("GET /cross-slot HTTP/1.1\r\n"), 500,
						"internal-error"),
				arguments("a Redis script error, a bug", raw("GET /script-error HTTP/1.1\r\n"), 500, "internal-error"),
				arguments("Redis unreachable", raw("GET /redis-down HTTP/1.1\r\n"), 503, "unavailable"),
				arguments("a Redis cluster down in a failover", raw("GET /cluster-down HTTP/1.1\r\n"), 503,
						"unavailable"),
				arguments("a Redis cluster client out of attempts on a dead primary",
						raw("GET /cluster-attempts-refused HTTP/1.1\r\n"), 503, "unavailable"),
				arguments("a Redis cluster client out of attempts on a cross-slot error, a bug",
						raw("GET /cluster-attempts-cross-slot HTTP/1.1\r\n"), 500, "internal-error"),
				arguments("a write to a demoted Redis primary", raw("GET /read-only-replica HTTP/1.1\r\n"), 503,
						"unavailable"),
				arguments("the database unreachable", raw("GET /database-down HTTP/1.1\r\n"), 503, "unavailable"),
				arguments("the database's connection lost in a transaction, its rollback failing too",
						raw("GET /database-gone-mid-transaction HTTP/1.1\r\n"), 503, "unavailable"),
				arguments("the database's connection lost at commit, the rollback after it failing too",
						raw("GET /database-gone-at-commit HTTP/1.1\r\n"), 503, "unavailable"),
				arguments("a bug in a transaction whose rollback then failed",
						raw("GET /bug-then-rollback-failed HTTP/1.1\r\n"), 500, "internal-error"));
	}

	@ParameterizedTest(name = "{0}: {2} {3}")
	@MethodSource("inputClasses")
	void eachInputClassEndsAsItsProblemType(String inputClass, byte[] request, int status, String type)
			throws IOException {
		RawHttp.Response response = RawHttp.exchange("127.0.0.1", this.port, withHost(request), 10_000);

		assertThat(response.status()).as(response.body()).isEqualTo(status);
		assertThat(response.header("content-type")).startsWith("application/problem+json");
		assertThat(response.body()).contains("\"type\":\"" + Refusal.BASE + type + "\"")
			.contains("\"status\":" + status)
			.doesNotContain("secret internals")
			.doesNotContain("Exception")
			.doesNotContain("<html");
		if (status == 503) {
			assertThat(response.header("retry-after")).isEqualTo("1");
		}
	}

	/**
	 * A JSON answer, an API's or a problem detail, leaves with its length in one piece,
	 * not in chunks ({@link SizedJson}).
	 */
	@ParameterizedTest(name = "{0}")
	@MethodSource("jsonAnswers")
	void aJsonAnswerLeavesWithItsLength(String answer, byte[] request, int status) throws IOException {
		RawHttp.Response response = RawHttp.exchange("127.0.0.1", this.port, withHost(request), 10_000);

		assertThat(response.status()).as(response.body()).isEqualTo(status);
		assertThat(response.header("transfer-encoding")).isNull();
		assertThat(response.header("content-length"))
			.isEqualTo(String.valueOf(response.body().getBytes(StandardCharsets.UTF_8).length));
		assertThat(response.body()).startsWith("{");
	}

	static Stream<Arguments> jsonAnswers() {
		return Stream.of(arguments("a GET's answer", raw("GET /page?limit=7 HTTP/1.1\r\n"), 200),
				arguments("a POST's answer", json(VALID), 200),
				arguments("an invalid request's problem", json("{\"topic_id\":1,\"action\":\"LIKE\"}"), 400),
				arguments("a refusal's problem", raw("GET /done HTTP/1.1\r\n"), 409));
	}

	static byte[] json(String body) {
		return body("application/json", body);
	}

	static byte[] body(String contentType, String body) {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		return concat(("POST /join HTTP/1.1\r\nContent-Type: " + contentType + "\r\nContent-Length: " + bytes.length
				+ "\r\n\r\n")
			.getBytes(StandardCharsets.ISO_8859_1), bytes);
	}

	static byte[] chunked(String body) {
		StringBuilder chunks = new StringBuilder();
		for (int at = 0; at < body.length(); at += 100) {
			String chunk = body.substring(at, Math.min(body.length(), at + 100));
			chunks.append(Integer.toHexString(chunk.length())).append("\r\n").append(chunk).append("\r\n");
		}
		return ("POST /join HTTP/1.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks
				+ "0\r\n\r\n")
			.getBytes(StandardCharsets.ISO_8859_1);
	}

	// an overlong '/' (C0 AF) in a string: Jackson alone reads it as a slash
	static byte[] utf8Broken() {
		byte[] before = "{\"topic_id\":1,\"size\":2,\"action\":\"LI".getBytes(StandardCharsets.UTF_8);
		byte[] after = "KE\"}".getBytes(StandardCharsets.UTF_8);
		byte[] body = concat(concat(before, new byte[] { (byte) 0xC0, (byte) 0xAF }), after);
		return concat(
				("POST /join HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n")
					.getBytes(StandardCharsets.ISO_8859_1),
				body);
	}

	/** A request line and headers as given, with nothing more. */
	static byte[] raw(String head) {
		return (head + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
	}

	private byte[] withHost(byte[] request) {
		String text = new String(request, StandardCharsets.ISO_8859_1);
		int lineEnd = text.indexOf("\r\n");
		return (text.substring(0, lineEnd + 2) + "Host: 127.0.0.1:" + this.port + "\r\nConnection: close\r\n"
				+ text.substring(lineEnd + 2))
			.getBytes(StandardCharsets.ISO_8859_1);
	}

	private static byte[] concat(byte[] first, byte[] second) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		out.writeBytes(first);
		out.writeBytes(second);
		return out.toByteArray();
	}

}
