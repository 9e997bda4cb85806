package io.kindling.relay;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.kindling.infra.http.ServiceClient;
import io.kindling.infra.servers.MariaDbServer;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.fuzz.Endpoint;
import io.kindling.infra.test.fuzz.Fuzzer;
import io.kindling.infra.test.fuzz.StoreSnapshot;
import io.kindling.relay.source.OutboxSources;
import io.kindling.support.web.Refusals;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A thousand malformed requests, seeded, at the admin API and the actuator: each is
 * refused with a documented problem detail, no outbox row moves, and the relay stays
 * healthy.
 */
@RealServers(value = { Server.MARIADB, Server.KAFKA }, database = "relay_fuzz")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class WebEdgeFuzzIT {

	static final String ADMIN_TOKEN = "fuzz-admin-token-0123456789";

	static OutboxDatabase matches;

	@LocalServerPort
	int port;

	@Autowired
	Refusals refusals;

	@Autowired
	OutboxSources sources;

	@DynamicPropertySource
	static void sources(DynamicPropertyRegistry registry) {
		matches = new OutboxDatabase("relay_fuzz_swipe", "match_outbox");
		registry.add("kindling.relay.sources[0].name", () -> "matches");
		registry.add("kindling.relay.sources[0].url", matches::jdbcUrl);
		registry.add("kindling.relay.sources[0].table", () -> "match_outbox");
		registry.add("kindling.relay.sources[0].topic", () -> "fuzz.matches");
		registry.add("kindling.relay.admin-token", () -> ADMIN_TOKEN);
		registry.add("kindling.relay.wake-up-port", () -> "0");
	}

	@AfterAll
	static void close() {
		matches.close();
	}

	@Test
	void everyMalformedRequestIsRefusedWithADocumentedProblemAndChangesNothing() throws Exception {
		List<Endpoint> endpoints = List.of(
				Endpoint.of("GET", "/api/outbox/parked", true)
					.badQueries("limit=abc", "limit=0", "limit=1001", "limit=2.5", "limit=%ZZ", "limit=-1",
							"limit=99999999999"),
				Endpoint.of("POST", "/api/outbox/parked/" + UUID.randomUUID() + "/retry", true),
				Endpoint.of("GET", "/actuator/health", false), Endpoint.of("GET", "/actuator/prometheus", false),
				Endpoint.of("GET", "/v3/api-docs", false), Endpoint.of("GET", "/swagger-ui.html", false));
		// the relay makes its partition rows beside the outbox table once it sees the
		// table
		await().atMost(Duration.ofSeconds(30)).until(() -> this.sources.ready().size() == 1);
		Map<String, String> before = tables();

		Fuzzer.Report report = new Fuzzer(Fuzzer.SEED, this.port, 16 * 1024, "Bearer " + ADMIN_TOKEN,
				List.of("", "Bearer", "Bearer wrong", "Basic dXNlcjpwYXNz", "Bearer " + ADMIN_TOKEN + "x"),
				this.refusals.uris())
			.run(endpoints, 1000);

		System.out.println("fuzz: " + report.statusesByDefect());
		assertThat(report.failures()).as(report.statusesByDefect().toString()).isEmpty();
		assertThat(tables()).isEqualTo(before);
		assertThat(new ServiceClient(this.port).get("/actuator/health", null).status()).isEqualTo(200);
	}

	private Map<String, String> tables() {
		return StoreSnapshot.database(matches.jdbcUrl(), MariaDbServer.USER, MariaDbServer.PASSWORD);
	}

}
