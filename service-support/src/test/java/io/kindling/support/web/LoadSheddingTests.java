package io.kindling.support.web;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.kindling.infra.http.EventStream;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServiceClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * With two requests at work and a limit of two, every further request is refused at once
 * with 503 overloaded and Retry-After, while the two go on and finish, health and metrics
 * answer, and event streams, once open, take no place.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.jackson.property-naming-strategy=SNAKE_CASE", "kindling.web.overload.limit=2",
				"kindling.web.overload.adaptive=false", "kindling.web.overload.retry-after=2s",
				"management.endpoints.web.exposure.include=health,metrics",
				"kindling.web.metrics-token=" + LoadSheddingTests.METRICS_TOKEN })
class LoadSheddingTests {

	static final String METRICS_TOKEN = "load-shedding-metrics";

	@LocalServerPort
	int port;

	@Autowired
	EdgeTestApplication.Gate gate;

	@Autowired
	JsonMapper json;

	@AfterEach
	void letGo() {
		this.gate.open();
	}

	@Test
	void pastTheLimitRequestsAreRefusedAtOnceWhileTheAdmittedFinish() throws Exception {
		ServiceClient http = new ServiceClient(this.port);
		long refusedBefore = metric(http, "kindling.web.overload.refused");
		try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
			List<Future<Response>> held = new ArrayList<>();
			for (int i = 0; i < 2; i++) {
				held.add(threads.submit(() -> http.get("/gate", null)));
			}
			assertThat(this.gate.awaitHeld(2)).as("both requests in their handler").isTrue();

			for (int i = 0; i < 10; i++) {
				Response refused = http.get("/page", null);
				assertThat(refused.status()).as(refused.body()).isEqualTo(503);
				assertThat(refused.header("Retry-After")).contains("2");
				assertThat(refused.header("Content-Type"))
					.hasValueSatisfying((type) -> assertThat(type).startsWith("application/problem+json"));
				JsonNode problem = this.json.readTree(refused.body());
				assertThat(problem.get("type").asString()).isEqualTo("https://kindling.io/problems/overloaded");
				assertThat(problem.get("title").asString()).isEqualTo("Overloaded");
				assertThat(problem.get("status").asInt()).isEqualTo(503);
			}
			Response bodyRefused = http.send("POST", "/join", null, WebEdgeTests.VALID);
			assertThat(bodyRefused.status()).isEqualTo(503);
			// the refusals came while both places were still taken: none waited for one
			assertThat(held).noneMatch(Future::isDone);

			assertThat(http.get("/actuator/health", null).status()).isEqualTo(200);
			assertThat(metric(http, "kindling.web.overload.in.flight")).isEqualTo(2);
			assertThat(metric(http, "kindling.web.overload.limit")).isEqualTo(2);
			assertThat(metric(http, "kindling.web.overload.refused") - refusedBefore).isEqualTo(11);

			this.gate.open();
			for (Future<Response> admitted : held) {
				assertThat(admitted.get().status()).isEqualTo(200);
				assertThat(admitted.get().body()).isEqualTo("{\"passed\":true}");
			}
		}
		assertThat(http.get("/page", null).status()).isEqualTo(200);
	}

	@Test
	void anOverloadedRefusalAFeatureThrowsSaysTheLimitsWait() throws Exception {
		Response refused = new ServiceClient(this.port).get("/queue-full", null);

		assertThat(refused.status()).as(refused.body()).isEqualTo(503);
		// kindling.web.overload.retry-after, as the limit's own refusals say
		assertThat(refused.header("Retry-After")).hasValue("2");
		JsonNode problem = this.json.readTree(refused.body());
		assertThat(problem.get("type").asString()).isEqualTo("https://kindling.io/problems/overloaded");
		assertThat(problem.get("detail").asString()).isEqualTo("The queue is full.");
	}

	@Test
	void anOpenEventStreamHoldsNoPlace() throws Exception {
		ServiceClient http = new ServiceClient(this.port);
		List<EventStream> streams = new ArrayList<>();
		try {
			// more streams than the limit's two places, each opened once the one before
			// has given its place back: a stream's place is given back when its handler
			// returns, which can be just after the client read ":open"
			for (int i = 0; i < 5; i++) {
				streams.add(http.events("/stream", null).awaitFirstLine(":open"));
				await().atMost(Duration.ofSeconds(10))
					.untilAsserted(() -> assertThat(metric(http, "kindling.web.overload.in.flight")).isZero());
			}
			assertThat(http.get("/page", null).status()).isEqualTo(200);
			assertThat(streams).allMatch((stream) -> stream.status() == 200);
		}
		finally {
			streams.forEach(EventStream::close);
		}
	}

	private long metric(ServiceClient http, String name) {
		Response answer = http.get("/actuator/metrics/" + name, METRICS_TOKEN);
		assertThat(answer.status()).as(answer.body()).isEqualTo(200);
		return (long) this.json.readTree(answer.body()).get("measurements").get(0).get("value").asDouble();
	}

}
