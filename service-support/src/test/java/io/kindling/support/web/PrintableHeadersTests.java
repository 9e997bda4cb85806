package io.kindling.support.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;

import io.kindling.infra.test.fuzz.RawHttp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * A header value the service reads that is not printable ASCII is a 400
 * {@code bad-request} problem, whoever reads it (a handler, or a filter before the
 * handlers), never a 500; a header nobody reads is not looked at.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "kindling.web.metrics-token=s3cret")
class PrintableHeadersTests {

	@LocalServerPort
	int port;

	static Stream<Arguments> values() {
		return Stream.of(arguments("é in UTF-8", "key-é".getBytes(StandardCharsets.UTF_8)),
				arguments("é in Latin-1", "key-é".getBytes(StandardCharsets.ISO_8859_1)),
				arguments("U+2028 in UTF-8", "key\u2028x".getBytes(StandardCharsets.UTF_8)),
				arguments("an emoji", "key-\uD83D\uDD25".getBytes(StandardCharsets.UTF_8)),
				arguments("a tab", "key\tx".getBytes(StandardCharsets.ISO_8859_1)));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("values")
	void aHeaderAHandlerReadsIsRefusedAs400(String what, byte[] value) throws IOException {
		RawHttp.Response response = send("/echo-key", "Idempotency-Key", value);

		assertThat(response.status()).as(response.body()).isEqualTo(400);
		assertThat(response.header("content-type")).startsWith("application/problem+json");
		assertThat(response.body()).contains("\"type\":\"https://kindling.io/problems/bad-request\"")
			.contains("Idempotency-Key");
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("values")
	void aHeaderAFilterReadsIsRefusedAs400Too(String what, byte[] value) throws IOException {
		byte[] bearer = new ByteArrayOutputStream() {
			{
				writeBytes("Bearer ".getBytes(StandardCharsets.US_ASCII));
				writeBytes(value);
			}
		}.toByteArray();

		RawHttp.Response response = send("/actuator/metrics", "Authorization", bearer);

		assertThat(response.status()).as(response.body()).isEqualTo(400);
		assertThat(response.body()).contains("\"type\":\"https://kindling.io/problems/bad-request\"");
	}

	@Test
	void aHeaderNobodyReadsIsNotLookedAtAndAPrintableOneIsRead() throws IOException {
		RawHttp.Response response = send("/echo-key", "User-Agent", "Mozilla/5.0 é".getBytes(StandardCharsets.UTF_8),
				"Idempotency-Key: key-1 ~!\r\n", "X-Nobody-Reads-This: \u00e9\r\n");

		assertThat(response.status()).as(response.body()).isEqualTo(200);
		assertThat(response.body()).contains("\"key\":\"key-1 ~!\"");
	}

	private RawHttp.Response send(String path, String header, byte[] value, String... more) throws IOException {
		ByteArrayOutputStream request = new ByteArrayOutputStream();
		request.writeBytes(("GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" + String.join("", more)
				+ header + ": ")
			.getBytes(StandardCharsets.ISO_8859_1));
		request.writeBytes(value);
		request.writeBytes("\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
		return RawHttp.exchange("127.0.0.1", this.port, request.toByteArray(), 10_000);
	}

}
