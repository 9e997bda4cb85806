package io.kindling.matching;

import java.util.List;
import java.util.Map;

import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.RealServersExtension;
import io.kindling.infra.test.fuzz.Endpoint;
import io.kindling.infra.test.fuzz.Endpoint.Field;
import io.kindling.infra.test.fuzz.Fuzzer;
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
@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "kindling_matching_fuzz")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "spring.data.redis.database=3")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class WebEdgeFuzzIT {

	@LocalServerPort
	int port;

	@Autowired
	Refusals refusals;

	@Test
	void everyMalformedRequestIsRefusedWithADocumentedProblemAndChangesNothing() {
		Api api = new Api(this.port);
		String token = api.session();
		List<Endpoint> endpoints = List.of(Endpoint.of("POST", "/api/sessions", false),
				Endpoint.withBody("POST", "/api/matching", true, Field.integer("topic_id", 1),
						Field.integer("size", 2)),
				Endpoint.of("GET", "/api/matching", true), Endpoint.of("DELETE", "/api/matching", true),
				Endpoint.of("GET", "/api/matching/events", true), Endpoint.of("GET", "/api/topics", false),
				Endpoint.withBody("POST", "/api/matching/reports", true, Field.enumeration("reason", "SPAM")),
				Endpoint.of("GET", "/api/matching/queues", true),
				Endpoint.withBody("POST", "/api/admin/topics", true, Field.text("name", "Fuzz")),
				Endpoint.withBody("PATCH", "/api/admin/topics/1", true, Field.text("name", "Fuzz")),
				Endpoint.of("GET", "/api/admin/topics", true),
				Endpoint.withBody("POST", "/api/admin/bans", true, Field.enumeration("ban_type", "IP"),
						Field.text("value", "10.0.0.1")),
				Endpoint.of("GET", "/api/admin/bans", true), Endpoint.of("DELETE", "/api/admin/bans/1", true),
				Endpoint.of("GET", "/actuator/health", false), Endpoint.of("GET", "/actuator/prometheus", false),
				Endpoint.of("GET", "/v3/api-docs", false), Endpoint.of("GET", "/swagger-ui.html", false));
		Map<String, String> tablesBefore = tables();
		Map<String, String> redisBefore = redis();

		Fuzzer.Report report = new Fuzzer(Fuzzer.SEED, this.port, 16 * 1024, "Bearer " + token,
				List.of("", "Bearer", "Bearer nope", "Bearer " + "A".repeat(43), "Basic dXNlcjpwYXNz",
						"Bearer " + token.substring(1), "Bearer " + token + "x"),
				this.refusals.uris())
			.run(endpoints, 1000);

		System.out.println("fuzz: " + report.statusesByDefect());
		assertThat(report.failures()).as(report.statusesByDefect().toString()).isEmpty();
		assertThat(tables()).isEqualTo(tablesBefore);
		assertThat(redis()).isEqualTo(redisBefore);
		assertThat(api.send("GET", "/actuator/health", null, null).body()).contains("\"UP\"");
		assertThat(api.status(token).status()).isEqualTo(200);
	}

	private Map<String, String> tables() {
		return StoreSnapshot.springDatasource();
	}

	private Map<String, String> redis() {
		return StoreSnapshot.redis("127.0.0.1", RealServersExtension.redis().port(), 3);
	}

}
