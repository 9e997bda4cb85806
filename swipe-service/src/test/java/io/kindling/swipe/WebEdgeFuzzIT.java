package io.kindling.swipe;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.RealServersExtension;
import io.kindling.infra.test.fuzz.Endpoint;
import io.kindling.infra.test.fuzz.Endpoint.Field;
import io.kindling.infra.test.fuzz.Fuzzer;
import io.kindling.infra.test.fuzz.RawHttp;
import io.kindling.infra.test.fuzz.StoreSnapshot;
import io.kindling.support.web.Refusals;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A thousand malformed requests, seeded, at every endpoint: each is refused with a
 * documented problem detail, none reaches a store, and the service stays healthy.
 */
@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "kindling_swipe_fuzz")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "spring.data.redis.database=4")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class WebEdgeFuzzIT {

	@LocalServerPort
	int port;

	@Autowired
	Refusals refusals;

	@Test
	void everyMalformedRequestIsRefusedWithADocumentedProblemAndChangesNothing() {
		long user = 4242;
		String token = TestTokens.forUser(user);
		Field location = Field.object("location", Field.number("lat", 52.52), Field.number("lon", 13.4));
		List<Endpoint> endpoints = List.of(
				Endpoint.withBody("PUT", "/api/profile", true, Field.text("display_name", "Ana"),
						Field.enumeration("gender", "WOMAN"), Field.enumArray("interested_in", "MAN"),
						Field.date("birth_date", "1990-01-01"), location, Field.integer("age_min", 18),
						Field.integer("age_max", 40), Field.integer("max_distance_km", 50)),
				Endpoint.of("GET", "/api/profiles/7", true),
				Endpoint.of("GET", "/api/deck", true)
					.badQueries("limit=abc", "limit=0", "limit=101", "limit=2.5", "limit=99999999999", "limit=%00",
							"limit=-1"),
				Endpoint.withBody("POST", "/api/swipes", true, Field.integer("target_user_id", 7),
						Field.enumeration("action", "LIKE"))
					.header("Idempotency-Key", "fuzz-key-1"),
				Endpoint.of("DELETE", "/api/swipes/last", true),
				Endpoint.of("GET", "/api/matches", true)
					.badQueries("cursor=%00", "cursor=abc", "cursor=Zm9v", "limit=abc", "limit=0", "limit=100000",
							"cursor=%ZZ"),
				Endpoint.of("DELETE", "/api/matches/99999", true), Endpoint.of("POST", "/api/boosts", true),
				Endpoint.of("GET", "/api/boosts/current", true),
				Endpoint.withBody("POST", "/api/blocks", true, Field.integer("user_id", 7)),
				Endpoint.of("DELETE", "/api/blocks/7", true),
				Endpoint.of("GET", "/api/blocks", true)
					.badQueries("cursor=%00", "cursor=abc", "cursor=Zm9v", "limit=abc", "limit=0", "limit=100000",
							"cursor=%ZZ"),
				Endpoint.withBody("POST", "/api/reports", true, Field.integer("user_id", 7),
						Field.enumeration("reason", "SPAM_OR_SCAM"), Field.text("details", "sells things")),
				Endpoint.of("GET", "/api/likes", true)
					.badQueries("cursor=%00", "cursor=abc", "cursor=Zm9v", "cursor=OTo5Ojk", "limit=abc", "limit=0",
							"limit=100000", "cursor=%ZZ"),
				Endpoint.of("GET", "/actuator/health", false), Endpoint.of("GET", "/actuator/prometheus", false),
				Endpoint.of("GET", "/v3/api-docs", false), Endpoint.of("GET", "/swagger-ui.html", false));
		Map<String, String> tablesBefore = tables();
		Map<String, String> redisBefore = redis();

		Fuzzer.Report report = new Fuzzer(Fuzzer.SEED, this.port, 16 * 1024, "Bearer " + token,
				List.of("", "Bearer", "Bearer x.y.z", "Basic dXNlcjpwYXNz", "Bearer " + TestTokens.unsigned(user),
						"Bearer " + TestTokens.signed("another-secret-of-at-least-thirty-two-bytes", "4242",
								Instant.now().plusSeconds(3600)),
						"Bearer " + TestTokens.signed(TestTokens.SECRET, "ana", Instant.now().plusSeconds(3600)),
						"Bearer " + TestTokens.signed(TestTokens.SECRET, "4242", Instant.now().minusSeconds(60)),
						"Bearer " + TestTokens.signed(TestTokens.SECRET, "4242", null), "Bearer " + token + "x"),
				this.refusals.uris())
			.run(endpoints, 1000);

		System.out.println("fuzz: " + report.statusesByDefect());
		assertThat(report.failures()).as(report.statusesByDefect().toString()).isEmpty();
		assertThat(tables()).isEqualTo(tablesBefore);
		assertThat(redis()).isEqualTo(redisBefore);
		TestApi api = new TestApi(this.port);
		assertThat(api.http().get("/actuator/health", null).body()).contains("\"UP\"");
		assertThat(api.get("/api/matches", user).status()).isEqualTo(200);
	}

	/** The request the issue found answering 500: a swipe whose key holds é or U+2028. */
	@Test
	void aSwipeWhoseKeyOrTokenIsNotPrintableAsciiIsABadRequestAndChangesNothing() throws IOException {
		String token = TestTokens.forUser(4343);
		Map<String, String> tablesBefore = tables();
		for (byte[] odd : List.of("é".getBytes(StandardCharsets.UTF_8), "é".getBytes(StandardCharsets.ISO_8859_1),
				"\u2028".getBytes(StandardCharsets.UTF_8))) {
			String value = new String(odd, StandardCharsets.ISO_8859_1);
			for (String headers : List.of("Authorization: Bearer " + token + "\r\nIdempotency-Key: key-" + value,
					"Authorization: Bearer " + token + value + "\r\nIdempotency-Key: key-1")) {
				String body = "{\"target_user_id\":7,\"action\":\"LIKE\"}";
				String request = "POST /api/swipes HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" + headers
						+ "\r\nContent-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n" + body;
				RawHttp.Response response = RawHttp.exchange("127.0.0.1", this.port,
						request.getBytes(StandardCharsets.ISO_8859_1), 10_000);

				assertThat(response.status()).as(response.body()).isEqualTo(400);
				assertThat(response.body()).contains("\"type\":\"https://kindling.io/problems/bad-request\"");
			}
		}
		assertThat(tables()).isEqualTo(tablesBefore);
	}

	private Map<String, String> tables() {
		return StoreSnapshot.springDatasource();
	}

	private Map<String, String> redis() {
		return StoreSnapshot.redis("127.0.0.1", RealServersExtension.redis().port(), 4);
	}

}
