package io.kindling.swipe;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

import io.kindling.infra.http.Request;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServiceClient;
import io.kindling.infra.test.ApiContract;
import io.kindling.support.openapi.ApiHandlers;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The swipe API's OpenAPI description is what the service does: every handler is in it,
 * real answers (successes and refusals, driven through the API as a client would)
 * validate against it, and docs/api/swipe-service.json is the same document.
 */
@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "kindling_swipe_api")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "spring.data.redis.database=5")
class ApiDescriptionIT {

	@LocalServerPort
	int port;

	@Autowired
	@Qualifier("requestMappingHandlerMapping")
	RequestMappingHandlerMapping handlers;

	ApiContract contract;

	@Autowired
	StringRedisTemplate redis;

	TestApi api;

	@BeforeEach
	void connect() {
		ServiceClient http = new ServiceClient(this.port);
		this.contract = ApiContract.servedBy(http);
		this.api = new TestApi(http.observedBy(this.contract::check));
	}

	@Test
	void everyHandlerIsDescribed() {
		this.contract.assertDescribes(ApiHandlers.of(this.handlers));
	}

	@Test
	void theDocsAndSwaggerUiAreOpenToAnyone() {
		ServiceClient http = new ServiceClient(this.port);
		ApiContract.assertSwaggerUiServed(http);
		assertThat(http.get("/v3/api-docs/swagger-config", null).status()).isEqualTo(200);
		assertThat(http.get("/api/matches", null).status()).isEqualTo(401);
	}

	@Test
	void realAnswersConformToTheDescription() {
		long base = 7_000_000_000L + ThreadLocalRandom.current().nextLong(1_000_000) * 1000;
		long ana = base + 1;
		long ben = base + 2;
		long cy = base + 3;
		long nobody = base + 4;
		for (long user : List.of(ana, ben, cy)) {
			assertThat(this.api.put("/api/profile", user, profile("1990-01-01", 18, 60)).status()).isEqualTo(200);
		}
		this.api.get("/api/profiles/" + ben, ana);
		assertThat(this.api.get("/api/deck?limit=5", ana).status()).isEqualTo(200);
		this.api.swipe(ana, "k-" + UUID.randomUUID(), ben, "LIKE");
		String key = "k-" + UUID.randomUUID();
		Response match = this.api.swipe(ben, key, ana, "SUPER_LIKE");
		assertThat(match.json().get("matched").asBoolean()).isTrue();
		this.api.swipe(ben, key, ana, "SUPER_LIKE");
		this.api.swipe(ben, key, cy, "LIKE");
		this.api.get("/api/matches?limit=1", ana);
		this.api.http().send(Request.of("POST", "/api/events/tickets").bearer(TestTokens.forUser(ana)));
		this.api.swipe(cy, "k-" + UUID.randomUUID(), ana, "PASS");
		assertThat(this.api.delete("/api/swipes/last", cy).status()).isEqualTo(204);
		this.api.delete("/api/swipes/last", cy);
		this.api.delete("/api/swipes/last", ben);
		long matchId = match.json().get("match_id").asLong();
		messages(ana, ben, cy, matchId);
		assertThat(this.api.delete("/api/matches/" + matchId, ana).status()).isEqualTo(204);
		this.api.get("/api/matches/" + matchId + "/messages", ana);
		this.api.delete("/api/matches/" + match.json().get("match_id").asLong(), ana);
		this.api.http().send(Request.of("POST", "/api/boosts").bearer(TestTokens.forUser(cy)));
		this.api.http().send(Request.of("POST", "/api/boosts").bearer(TestTokens.forUser(cy)));
		this.api.get("/api/boosts/current", cy);
		this.api.get("/api/boosts/current", ana);
		this.api.get("/api/likes?limit=1", ana);
		Request block = Request.of("POST", "/api/blocks")
			.bearer(TestTokens.forUser(cy))
			.json("{\"user_id\": " + ben + "}");
		assertThat(this.api.http().send(block).status()).isEqualTo(201);
		this.api.http().send(block);
		this.api.get("/api/blocks?limit=1", cy);
		assertThat(this.api.delete("/api/blocks/" + ben, cy).status()).isEqualTo(204);
		this.api.http()
			.send(Request.of("POST", "/api/reports")
				.bearer(TestTokens.forUser(cy))
				.json("{\"user_id\": " + ana + ", \"reason\": \"SPAM_OR_SCAM\", \"details\": \"sells things\"}"));
		this.api.http().send(Request.of("POST", "/api/blocks").bearer(TestTokens.forUser(cy)).json("{}"));
		operators(ben, cy);
		refusals(ana, nobody);
		this.contract.assertAllConformed();
		System.out.println("operations no answer was checked for: " + this.contract.unexercised());
	}

	@Test
	void theCommittedCopyIsWhatTheServiceServes() {
		this.contract.assertCommittedCopy(ApiContract.repositoryRoot().resolve("docs/api/swipe-service.json"));
	}

	/**
	 * The moderation API, with the tests' admin token: a report dismissed, a user banned
	 * and let go.
	 */
	private void operators(long reporter, long reported) {
		String token = "test-operators-token";
		Response report = this.api.http()
			.send(Request.of("POST", "/api/reports")
				.bearer(TestTokens.forUser(reporter))
				.json("{\"user_id\": " + reported + ", \"reason\": \"FAKE_PROFILE\"}"));
		long reportId = report.json().get("report_id").asLong();
		this.api.http().get("/api/admin/reports?limit=1", token);
		this.api.http().get("/api/admin/reports?cursor=bogus", token);
		this.api.http().get("/api/admin/reports", null);
		String resolution = "/api/admin/reports/" + reportId + "/resolution";
		assertThat(
				this.api.http().send("POST", resolution, token, "{\"action\": \"DISMISS\", \"note\": \"ok\"}").status())
			.isEqualTo(200);
		this.api.http().send("POST", resolution, token, "{\"action\": \"BAN\"}");
		this.api.http().send("POST", "/api/admin/reports/1/resolution", token, "{}");
		this.api.http().send("POST", "/api/admin/reports/999999999999/resolution", token, "{\"action\": \"BAN\"}");
		this.api.http().get("/api/admin/reports?status=resolved&limit=1", token);
		String ban = "{\"user_id\": " + reported + ", \"reason\": \"fake\"}";
		assertThat(this.api.http().send("POST", "/api/admin/user-bans", token, ban).status()).isEqualTo(201);
		this.api.http().send("POST", "/api/admin/user-bans", token, ban);
		this.api.get("/api/matches", reported);
		this.api.http()
			.send("POST", "/api/admin/user-bans", token,
					"{\"user_id\": 0, \"reason\": \"x\", \"expires_at\": \"2020-01-01T00:00:00Z\"}");
		this.api.http().get("/api/admin/user-bans?limit=1", token);
		assertThat(this.api.http().send("DELETE", "/api/admin/user-bans/" + reported, token, null).status())
			.isEqualTo(204);
		this.api.http().send("DELETE", "/api/admin/user-bans/" + reported, token, null);
		this.api.http().get("/api/admin/audit?limit=2", token);
	}

	private void messages(long ana, long ben, long outsider, long matchId) {
		String messages = "/api/matches/" + matchId + "/messages";
		String hello = "{\"text\": \"hello\", \"client_message_id\": \"c-1\"}";
		Response sent = this.api.post(messages, ana, hello);
		assertThat(sent.status()).as(sent.body()).isEqualTo(201);
		this.api.post(messages, ana, hello);
		this.api.post(messages, ana, "{\"text\": \"other\", \"client_message_id\": \"c-1\"}");
		this.api.post(messages, ana, "{\"text\": \"\", \"client_message_id\": \"c-2\"}");
		this.api.post(messages, outsider, hello);
		assertThat(this.api.post(messages, ben, "{\"text\": \"hi\", \"client_message_id\": \"c-1\"}").status())
			.isEqualTo(201);
		assertThat(this.api.get(messages + "?limit=1", ana).status()).isEqualTo(200);
		this.api.get(messages + "?cursor=bogus", ana);
		this.api.get("/api/matches", ben);
		String read = "/api/matches/" + matchId + "/read";
		assertThat(
				this.api.post(read, ana, "{\"message_id\": " + sent.json().get("message_id").asLong() + "}").status())
			.isEqualTo(204);
		this.api.post(read, ana, "{\"message_id\": 1}");
		this.api.post(read, ana, "{}");
		this.api.post(read, outsider, "{\"message_id\": 1}");
		// the per-user rate: a bucket left empty until a minute from now by another
		// instance
		this.redis.opsForHash()
			.putAll("message_rate:{" + ana + "}",
					java.util.Map.of("tokens", "0", "at", String.valueOf(System.currentTimeMillis() + 60_000)));
		this.api.post(messages, ana, "{\"text\": \"fast\", \"client_message_id\": \"c-3\"}");
	}

	private void refusals(long user, long withoutProfile) {
		this.api.http().get("/api/matches", null);
		this.api.http().get("/api/matches", "not.a.jwt");
		this.api.put("/api/profile", user, profile("2020-01-01", 18, 60));
		this.api.put("/api/profile", user, profile("1990-01-01", 50, 30));
		this.api.put("/api/profile", user, "{\"display_name\": 7}");
		this.api.put("/api/profile", user, "{}");
		this.api.get("/api/profiles/" + withoutProfile, user);
		this.api.get("/api/deck", withoutProfile);
		this.api.get("/api/deck?limit=0", user);
		this.api.get("/api/matches?cursor=bogus", user);
		this.api.swipe(user, null, "{\"target_user_id\": 7, \"action\": \"LIKE\"}");
		this.api.swipe(user, "k-" + UUID.randomUUID(), user, "LIKE");
		this.api.swipe(user, "k-" + UUID.randomUUID(), withoutProfile, "LIKE");
		this.api.swipe(user, "k-" + UUID.randomUUID(), 7, "WINK");
		this.api.http()
			.send(Request.of("POST", "/api/swipes")
				.bearer(TestTokens.forUser(user))
				.header("Content-Type", "text/plain")
				.body("x".getBytes()));
		this.api.http().send(Request.of("GET", "/api/events?ticket=spent").header("Accept", "text/event-stream"));
		this.api.http()
			.send(Request.of("GET", "/api/deck").bearer(TestTokens.forUser(user)).header("Accept", "text/csv"));
	}

	private static String profile(String birthDate, int ageMin, int ageMax) {
		return """
				{"display_name": "Ana", "gender": "WOMAN", "interested_in": ["WOMAN", "MAN"], "birth_date": "%s",
				 "location": {"lat": 52.52, "lon": 13.405}, "age_min": %d, "age_max": %d, "max_distance_km": 50}
				""".formatted(birthDate, ageMin, ageMax);
	}

}
