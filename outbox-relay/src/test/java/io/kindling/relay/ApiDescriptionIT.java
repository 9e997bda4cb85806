package io.kindling.relay;

import java.time.Duration;
import java.util.UUID;

import io.kindling.infra.http.Request;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServiceClient;
import io.kindling.infra.test.ApiContract;
import io.kindling.support.openapi.ApiHandlers;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The relay's OpenAPI description is what it does: every handler is in it, real answers
 * (a parked row listed and retried, and the refusals) validate against it, and
 * docs/api/outbox-relay.json is the same document.
 */
@RealServers(value = { Server.MARIADB, Server.KAFKA }, database = "relay_api")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class ApiDescriptionIT {

	static final String ADMIN_TOKEN = "api-admin-token-0123456789";

	static OutboxDatabase matches;

	@LocalServerPort
	int port;

	@Autowired
	@Qualifier("requestMappingHandlerMapping")
	RequestMappingHandlerMapping handlers;

	ApiContract contract;

	ServiceClient http;

	@DynamicPropertySource
	static void sources(DynamicPropertyRegistry registry) {
		matches = new OutboxDatabase("relay_api_swipe", "match_outbox");
		registry.add("kindling.relay.sources[0].name", () -> "matches");
		registry.add("kindling.relay.sources[0].url", matches::jdbcUrl);
		registry.add("kindling.relay.sources[0].table", () -> "match_outbox");
		registry.add("kindling.relay.sources[0].topic", () -> "api.matches");
		registry.add("kindling.relay.max-attempts", () -> "2");
		registry.add("kindling.relay.backoff.initial", () -> "20ms");
		registry.add("kindling.relay.backoff.max", () -> "50ms");
		registry.add("kindling.relay.admin-token", () -> ADMIN_TOKEN);
		registry.add("kindling.relay.wake-up-port", () -> "0");
	}

	@AfterAll
	static void close() {
		matches.close();
	}

	@BeforeEach
	void connect() {
		ServiceClient plain = new ServiceClient(this.port);
		this.contract = ApiContract.servedBy(plain);
		this.http = plain.observedBy(this.contract::check);
	}

	@Test
	void everyHandlerIsDescribed() {
		this.contract.assertDescribes(ApiHandlers.of(this.handlers));
	}

	@Test
	void theDocsAndSwaggerUiAreOpenToAnyone() {
		ServiceClient plain = new ServiceClient(this.port);
		ApiContract.assertSwaggerUiServed(plain);
	}

	@Test
	void realAnswersConformToTheDescription() {
		// larger than the producer's max.request.size: Kafka refuses it every time
		String poison = matches.write("poison:" + UUID.randomUUID(), ",\"padding\":\"" + "x".repeat(1_200_000) + "\"");
		await().atMost(Duration.ofSeconds(30)).until(() -> admin("GET", "/api/outbox/parked").body().contains(poison));
		admin("GET", "/api/outbox/parked?limit=1");
		matches.jdbc.sql("UPDATE match_outbox SET payload = '{}' WHERE event_id = :eventId")
			.param("eventId", poison)
			.update();
		assertThat(admin("POST", "/api/outbox/parked/" + poison + "/retry").status()).isEqualTo(200);
		admin("POST", "/api/outbox/parked/" + UUID.randomUUID() + "/retry");
		admin("POST", "/api/outbox/parked/not-an-id/retry");
		admin("GET", "/api/outbox/parked?limit=0");
		this.http.send(Request.get("/api/outbox/parked").header("X-Admin-Token", ADMIN_TOKEN));
		this.http.send(Request.get("/api/outbox/parked"));
		this.http.send(Request.get("/api/outbox/parked").bearer("wrong"));
		this.contract.assertAllConformed();
		System.out.println("operations no answer was checked for: " + this.contract.unexercised());
	}

	@Test
	void theCommittedCopyIsWhatTheServiceServes() {
		this.contract.assertCommittedCopy(ApiContract.repositoryRoot().resolve("docs/api/outbox-relay.json"));
	}

	private Response admin(String method, String path) {
		return this.http.send(Request.of(method, path).bearer(ADMIN_TOKEN));
	}

}
