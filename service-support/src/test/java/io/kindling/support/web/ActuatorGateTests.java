package io.kindling.support.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import io.kindling.infra.test.fuzz.RawHttp;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The actuator on the service port: health, UP or DOWN and nothing more, for anyone;
 * every other endpoint for the metrics token only, however its path is spelled.
 */
class ActuatorGateTests {

	static final String EXPOSED = "management.endpoints.web.exposure.include=health,info,metrics";

	static final String PROBES = "management.endpoint.health.probes.enabled=true";

	static final String DETAILS = "management.endpoint.health.group.details.include=*";

	static final String DETAILS_SHOWN = "management.endpoint.health.group.details.show-details=always";

	@Nested
	@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
			properties = { EXPOSED, PROBES, DETAILS, DETAILS_SHOWN, "kindling.web.metrics-token=s3cret-token" })
	class WithAToken {

		@LocalServerPort
		int port;

		@Test
		void healthIsOpenAndSaysOnlyUpOrDown() throws IOException {
			RawHttp.Response health = get("/actuator/health", null);

			assertThat(health.status()).isEqualTo(200);
			assertThat(health.body()).contains("\"status\":\"UP\"")
				.doesNotContain("components")
				.doesNotContain("\"details\":")
				.doesNotContain("diskSpace");
			assertThat(get("/actuator/health/readiness", null).body()).isEqualTo("{\"status\":\"UP\"}");
			assertThat(get("/actuator/health/liveness", null).status()).isEqualTo(200);
		}

		@Test
		void everyOtherEndpointWantsTheToken() throws IOException {
			for (String path : new String[] { "/actuator/metrics", "/actuator/info", "/actuator",
					"/actuator/metrics/jvm.memory.used", "/actuator/health/details" }) {
				RawHttp.Response none = get(path, null);
				assertThat(none.status()).as(path).isEqualTo(401);
				assertThat(none.header("www-authenticate")).isEqualTo("Bearer");
				assertThat(none.body()).contains("https://kindling.io/problems/unauthenticated");
				assertThat(get(path, "Bearer s3cret-toke").status()).as(path).isEqualTo(401);
				assertThat(get(path, "Basic czNjcmV0LXRva2Vu").status()).as(path).isEqualTo(401);
				assertThat(get(path, "Bearer s3cret-token").status()).as(path).isEqualTo(200);
			}
		}

		@Test
		void healthsDetailsAreForTheTokensHoldersOnly() throws IOException {
			assertThat(get("/actuator/health/details", "Bearer s3cret-token").body()).contains("diskSpace");
			assertThat(get("/actuator/health/diskSpace", null).status()).isEqualTo(401);
			assertThat(get("/actuator/health/details", null).body()).doesNotContain("diskSpace");
		}

		@Test
		void noSpellingOfThePathSlipsPastTheGate() throws IOException {
			for (String path : new String[] { "/actuator/health/../metrics", "/actuator//metrics",
					"/actuator/metrics;jsessionid=x", "/actuator/./metrics", "/actuator/health/%2e%2e/metrics",
					"/x/../actuator/metrics" }) {
				RawHttp.Response response = get(path, null);
				assertThat(response.status()).as(path).isIn(400, 401, 404);
				assertThat(response.body()).as(path).doesNotContain("jvm.memory.used");
			}
		}

		private RawHttp.Response get(String path, String authorization) throws IOException {
			String request = "GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
					+ ((authorization != null) ? "Authorization: " + authorization + "\r\n" : "") + "\r\n";
			return RawHttp.exchange("127.0.0.1", this.port, request.getBytes(StandardCharsets.US_ASCII), 10_000);
		}

	}

	@Nested
	@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = EXPOSED)
	class WithoutAToken {

		@LocalServerPort
		int port;

		@Test
		void everyEndpointButHealthAnswers401ToEveryone() throws IOException {
			assertThat(get("/actuator/health").status()).isEqualTo(200);
			RawHttp.Response metrics = get("/actuator/metrics");
			assertThat(metrics.status()).isEqualTo(401);
			assertThat(metrics.body()).contains("no kindling.web.metrics-token is set");
		}

		private RawHttp.Response get(String path) throws IOException {
			String request = "GET " + path
					+ " HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer \r\n\r\n";
			return RawHttp.exchange("127.0.0.1", this.port, request.getBytes(StandardCharsets.US_ASCII), 10_000);
		}

	}

}
