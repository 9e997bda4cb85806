package io.kindling.swipe.swipe;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.kindling.infra.http.Response;
import io.kindling.swipe.TestTokens;
import io.kindling.swipe.geo.Geohash;
import io.kindling.swipe.geo.LocationGrid;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;

class SwipeFlowIT extends SwipeTestBase {

	@Autowired
	JsonMapper json;

	@Autowired
	LocationGrid grid;

	@Test
	void aLikeBackBecomesOneMatchWithItsOutboxRow() {
		long ana = newUser();
		long ben = newUser();
		Response first = this.api.swipe(ana, key(), ben, "LIKE");
		assertThat(first.status()).isEqualTo(200);
		JsonNode anaLike = this.json.readTree(first.body());
		assertThat(anaLike.get("matched").asBoolean()).isFalse();
		assertThat(anaLike.get("action").asString()).isEqualTo("LIKE");
		assertThat(anaLike.get("match_id").isNull()).isTrue();

		JsonNode benLike = this.json.readTree(this.api.swipe(ben, key(), ana, "SUPER_LIKE").body());
		assertThat(benLike.get("matched").asBoolean()).isTrue();
		long matchId = benLike.get("match_id").asLong();
		Instant matchedAt = Instant.parse(benLike.get("matched_at").asString());

		Map<String, Object> match = this.jdbc.sql("SELECT * FROM matches WHERE match_id = :id")
			.param("id", matchId)
			.query()
			.singleRow();
		assertThat(match).containsEntry("user_id_1", Math.min(ana, ben)).containsEntry("user_id_2", Math.max(ana, ben));
		Map<String, Object> benRow = this.jdbc
			.sql("SELECT response_status, match_id, matched_at FROM swipe_history WHERE user_id = :u")
			.param("u", ben)
			.query()
			.singleRow();
		assertThat(((Number) benRow.get("response_status")).intValue()).isEqualTo(1);
		assertThat(benRow.get("match_id")).isEqualTo(matchId);
		assertThat(((Timestamp) benRow.get("matched_at")).toInstant()).isEqualTo(matchedAt);
		assertThat(((Timestamp) match.get("matched_at")).toInstant()).isEqualTo(matchedAt);

		Map<String, Object> outbox = this.jdbc
			.sql("SELECT * FROM match_outbox WHERE JSON_VALUE(payload, '$.match_id') = :id")
			.param("id", matchId)
			.query()
			.singleRow();
		String key = Math.min(ana, ben) + ":" + Math.max(ana, ben);
		assertThat(outbox).containsEntry("event_type", "MATCH_CREATED").containsEntry("event_key", key);
		JsonNode payload = this.json.readTree((String) outbox.get("payload"));
		assertThat(payload.get("event_id").asString()).isEqualTo(outbox.get("event_id"));
		assertThat(payload.get("event_type").asString()).isEqualTo("MATCH_CREATED");
		assertThat(payload.get("event_key").asString()).isEqualTo(key);
		assertThat(payload.get("match_id").asLong()).isEqualTo(matchId);
		assertThat(payload.get("user_ids").get(0).asLong()).isEqualTo(Math.min(ana, ben));
		assertThat(payload.get("user_ids").get(1).asLong()).isEqualTo(Math.max(ana, ben));
		assertThat(Instant.parse(payload.get("matched_at").asString())).isEqualTo(matchedAt);
		// every time keeps its microseconds (MariaDB 10.x would get whole seconds from a
		// bound Timestamp): the match is as old as its event, and the outbox row's
		// created_at, where the relay's latency starts, is that time too
		Instant occurredAt = Instant.parse(payload.get("occurred_at").asString()).truncatedTo(ChronoUnit.MICROS);
		assertThat(matchedAt).isEqualTo(occurredAt);
		assertThat(((Timestamp) outbox.get("created_at")).toInstant()).isEqualTo(occurredAt);
	}

	@Test
	void aRetryGetsTheSameBytesMarkedReplayed() {
		long ana = newUser();
		long ben = newUser();
		this.api.swipe(ben, key(), ana, "LIKE");
		String key = key();
		Response first = this.api.swipe(ana, key, ben, "LIKE");
		Response retry = this.api.swipe(ana, key, ben, "LIKE");
		assertThat(first.status()).isEqualTo(200);
		assertThat(first.header("Idempotent-Replayed")).isEmpty();
		assertThat(retry.status()).isEqualTo(200);
		assertThat(retry.header("Idempotent-Replayed")).hasValue("true");
		assertThat(retry.body()).isEqualTo(first.body());
		assertThat(this.json.readTree(first.body()).get("matched").asBoolean()).isTrue();
		assertThat(count("SELECT COUNT(*) FROM swipe_history WHERE user_id = " + ana)).isOne();
		assertThat(count("SELECT COUNT(*) FROM matches WHERE user_id_1 = " + Math.min(ana, ben))).isOne();
	}

	@Test
	void aFinishedNonMatchStaysANonMatchWhenRetriedAfterTheMatch() {
		long ana = newUser();
		long ben = newUser();
		String key = key();
		Response first = this.api.swipe(ana, key, ben, "LIKE");
		this.api.swipe(ben, key(), ana, "LIKE");
		Response retry = this.api.swipe(ana, key, ben, "LIKE");
		assertThat(retry.body()).isEqualTo(first.body());
		assertThat(this.json.readTree(retry.body()).get("matched").asBoolean()).isFalse();
	}

	@Test
	void theSameKeyWithAnotherPayloadIsAConflict() {
		long ana = newUser();
		long ben = newUser();
		long cleo = newUser();
		String key = key();
		this.api.swipe(ana, key, ben, "LIKE");
		Response otherAction = this.api.swipe(ana, key, ben, "PASS");
		Response otherTarget = this.api.swipe(ana, key, cleo, "LIKE");
		assertThat(otherAction.status()).isEqualTo(409);
		assertThat(otherAction.header("Content-Type").orElseThrow()).startsWith("application/problem+json");
		assertThat(otherTarget.status()).isEqualTo(409);
		// the type is the title's slug in every locale (Turkish lower-cases "I" to a
		// dotless "ı"; the tests run in it)
		assertThat(this.json.readTree(otherAction.body()).get("type").asString())
			.isEqualTo("https://kindling.io/problems/idempotency-key-reused");
		assertThat(count("SELECT COUNT(*) FROM swipe_history WHERE user_id = " + ana)).isOne();
	}

	@Test
	void anActionIsReadInAnyCaseAndAnsweredInCapitals() {
		long ana = newUser();
		long ben = newUser();
		long cleo = newUser();
		// Turkish upper-cases "i" to a dotted "İ": "like" must still be LIKE
		Response like = this.api.swipe(ana, key(), ben, "like");
		assertThat(like.status()).as(like.body()).isEqualTo(200);
		assertThat(this.json.readTree(like.body()).get("action").asString()).isEqualTo("LIKE");
		Response superLike = this.api.swipe(ana, key(), cleo, "Super_Like");
		assertThat(superLike.status()).as(superLike.body()).isEqualTo(200);
		assertThat(this.json.readTree(superLike.body()).get("action").asString()).isEqualTo("SUPER_LIKE");
	}

	@Test
	void aPassIsFinalAndNeverMatches() {
		long ana = newUser();
		long ben = newUser();
		JsonNode pass = this.json.readTree(this.api.swipe(ana, key(), ben, "PASS").body());
		assertThat(pass.get("matched").asBoolean()).isFalse();
		JsonNode like = this.json.readTree(this.api.swipe(ben, key(), ana, "LIKE").body());
		assertThat(like.get("matched").asBoolean()).isFalse();
		assertThat(count("SELECT COUNT(*) FROM matches WHERE user_id_1 = " + Math.min(ana, ben))).isZero();
		assertThat(count("SELECT COUNT(*) FROM swipe_history WHERE response_status IS NULL AND user_id IN (" + ana + ","
				+ ben + ")"))
			.isZero();
	}

	@Test
	void badSwipesAreRefusedWithProblemDetailsAndChangeNothing() {
		long ana = newUser();
		long ben = newUser();
		assertProblem(this.api.swipe(ana, key(), ana, "LIKE"), 400);
		assertProblem(this.api.swipe(ana, key(), 999_999_999_999L, "LIKE"), 422);
		assertProblem(this.api.swipe(ana, key(), ben, "WINK"), 400);
		assertProblem(this.api.swipe(ana, null, "{\"target_user_id\":" + ben + ",\"action\":\"LIKE\"}"), 400);
		assertProblem(this.api.swipe(ana, "k".repeat(65), ben, "LIKE"), 400);
		assertProblem(this.api.swipe(ana, "has space", ben, "LIKE"), 400);
		assertProblem(this.api.swipe(ana, key(), "{\"target_user_id\":"), 400);
		Response seven = this.api.swipe(ana, key(), "{\"target_user_id\":\"seven\",\"action\":\"LIKE\"}");
		assertProblem(seven, 400);
		assertThat(this.json.readTree(seven.body()).get("detail").asString())
			.startsWith("target_user_id has the wrong type");
		assertThat(this.json.readTree(seven.body()).get("type").asString())
			.isEqualTo("https://kindling.io/problems/unreadable-request-body");
		assertProblem(this.api.swipe(ana, key(), "{\"action\":\"LIKE\"}"), 400);
		assertProblem(this.api.swipe(ana, key(), "[]"), 400);
		assertProblem(
				this.api.swipe(ana, key(),
						"{\"target_user_id\":" + ben + ",\"action\":\"LIKE\",\"pad\":\"" + "x".repeat(100_000) + "\"}"),
				413);
		assertThat(count("SELECT COUNT(*) FROM swipe_history WHERE user_id = " + ana)).isZero();
	}

	@Test
	void aSecondSwipeOnTheSamePersonIsAConflictUntilRewound() {
		long ana = newUser();
		long ben = newUser();
		this.api.swipe(ana, key(), ben, "PASS");
		assertProblem(this.api.swipe(ana, key(), ben, "LIKE"), 409);
		assertThat(this.api.delete("/api/swipes/last", ana).status()).isEqualTo(204);
		assertThat(this.api.swipe(ana, key(), ben, "LIKE").status()).isEqualTo(200);
	}

	@Test
	void devicesSwipingTheSamePersonAtOnceGetOneSwipeAndConflicts() throws Exception {
		int devices = 16;
		for (int round = 0; round < 20; round++) {
			long ana = newUser();
			long ben = newUser();
			CountDownLatch start = new CountDownLatch(1);
			List<Future<Integer>> answers = new ArrayList<>();
			try (ExecutorService pool = Executors.newFixedThreadPool(devices)) {
				for (int device = 0; device < devices; device++) {
					String action = (device % 2 == 0) ? "LIKE" : "PASS";
					answers.add(pool.submit(() -> {
						start.await();
						return this.api.swipe(ana, key(), ben, action).status();
					}));
				}
				start.countDown();
				List<Integer> statuses = new ArrayList<>();
				for (Future<Integer> answer : answers) {
					statuses.add(answer.get());
				}
				assertThat(statuses).as("round %d", round).containsOnlyOnce(200);
				assertThat(statuses).filteredOn((status) -> status != 200).containsOnly(409);
			}
			assertThat(count("SELECT COUNT(*) FROM swipe_history WHERE user_id = " + ana)).isEqualTo(1);
		}
	}

	@Test
	void dailyLimitsAnswer429WithRetryAfterUntilMidnightUtc() {
		long ana = newUser();
		List<Long> others = newUsers(6);
		for (int i = 0; i < 3; i++) {
			assertThat(this.api.swipe(ana, key(), others.get(i), "SUPER_LIKE").status()).isEqualTo(200);
		}
		Response fourth = this.api.swipe(ana, key(), others.get(3), "SUPER_LIKE");
		assertProblem(fourth, 429);
		long retryAfter = Long.parseLong(fourth.header("Retry-After").orElseThrow());
		Instant now = this.clock.instant();
		long untilMidnight = Duration
			.between(now, LocalDate.ofInstant(now, ZoneOffset.UTC).plusDays(1).atStartOfDay(ZoneOffset.UTC))
			.toSeconds();
		assertThat(retryAfter).isBetween(untilMidnight - 5, untilMidnight + 5);
		// super likes and likes have their own budgets; a PASS has none
		assertThat(this.api.swipe(ana, key(), others.get(3), "LIKE").status()).isEqualTo(200);
		assertThat(this.api.swipe(ana, key(), others.get(4), "PASS").status()).isEqualTo(200);

		this.clock.advance(Duration.ofSeconds(retryAfter + 1));
		assertThat(this.api.swipe(ana, key(), others.get(5), "SUPER_LIKE").status()).isEqualTo(200);
	}

	@Test
	void aRetryOfAnAcceptedSwipeIsReplayedEvenPastTheLimit() {
		long ana = newUser();
		List<Long> others = newUsers(5);
		String lastKey = null;
		for (long other : others) {
			lastKey = key();
			assertThat(this.api.swipe(ana, lastKey, other, "LIKE").status()).isEqualTo(200);
		}
		Response retry = this.api.swipe(ana, lastKey, others.get(4), "LIKE");
		assertThat(retry.status()).isEqualTo(200);
		assertThat(retry.header("Idempotent-Replayed")).hasValue("true");
		assertProblem(this.api.swipe(ana, key(), newUser(), "LIKE"), 429);
	}

	@Test
	void rewindTakesBackTheLastSwipeButNeverOneThatMadeAMatch() {
		long ana = newUser();
		long ben = newUser();
		long cleo = newUser();
		assertProblem(this.api.delete("/api/swipes/last", ana), 404);

		this.api.swipe(ana, key(), ben, "LIKE");
		assertThat(this.api.delete("/api/swipes/last", ana).status()).isEqualTo(204);
		assertProblem(this.api.delete("/api/swipes/last", ana), 404);
		assertThat(this.redis.opsForHash().get(MutualLikeScript.pairKey(ana, ben), "right_a")).isNull();
		// the rewound like no longer counts: ben's like is not a match
		JsonNode benLike = this.json.readTree(this.api.swipe(ben, key(), ana, "LIKE").body());
		assertThat(benLike.get("matched").asBoolean()).isFalse();

		JsonNode cleoLike = this.json.readTree(this.api.swipe(cleo, key(), ben, "LIKE").body());
		assertThat(cleoLike.get("matched").asBoolean()).isFalse();
		JsonNode benBack = this.json.readTree(this.api.swipe(ben, key(), cleo, "LIKE").body());
		assertThat(benBack.get("matched").asBoolean()).isTrue();
		assertProblem(this.api.delete("/api/swipes/last", ben), 409);
		// the like that was half of the match cannot be taken back either
		assertProblem(this.api.delete("/api/swipes/last", cleo), 409);
	}

	@Test
	void aLikeThatRedisStillRemembersAfterARewindMakesNoMatch() {
		long ana = newUser();
		long ben = newUser();
		this.api.swipe(ana, key(), ben, "LIKE");
		this.api.delete("/api/swipes/last", ana);
		// as if the rewind's HDEL had been lost with an unreachable Redis
		this.redis.opsForHash().put(MutualLikeScript.pairKey(ana, ben), MutualLikeScript.likeField(ana, ben), "1");
		JsonNode benLike = this.json.readTree(this.api.swipe(ben, key(), ana, "LIKE").body());
		assertThat(benLike.get("matched").asBoolean()).isFalse();
		assertThat(count("SELECT COUNT(*) FROM matches WHERE user_id_1 = " + Math.min(ana, ben))).isZero();
	}

	@Test
	void aMutualLikeLostFromRedisStillBecomesAMatch() {
		long ana = newUser();
		long ben = newUser();
		this.api.swipe(ana, key(), ben, "LIKE");
		this.redis.delete(MutualLikeScript.pairKey(ana, ben));
		JsonNode benLike = this.json.readTree(this.api.swipe(ben, key(), ana, "LIKE").body());
		assertThat(benLike.get("matched").asBoolean()).isTrue();
	}

	@Test
	void matchesArePagedNewestFirstAndUnmatchIsSoftWithAnEvent() {
		long ana = newUser();
		List<Long> others = newUsers(5);
		for (long other : others) {
			this.api.swipe(other, key(), ana, "LIKE");
			this.clock.advance(Duration.ofSeconds(1));
		}
		for (long other : others) {
			assertThat(this.json.readTree(this.api.swipe(ana, key(), other, "LIKE").body()).get("matched").asBoolean())
				.isTrue();
			this.clock.advance(Duration.ofSeconds(1));
		}
		JsonNode page1 = this.json.readTree(this.api.get("/api/matches?limit=2", ana).body());
		assertThat(userIds(page1)).containsExactly(others.get(4), others.get(3));
		JsonNode page2 = this.json
			.readTree(this.api.get("/api/matches?limit=2&cursor=" + page1.get("next_cursor").asString(), ana).body());
		assertThat(userIds(page2)).containsExactly(others.get(2), others.get(1));
		JsonNode page3 = this.json
			.readTree(this.api.get("/api/matches?limit=2&cursor=" + page2.get("next_cursor").asString(), ana).body());
		assertThat(userIds(page3)).containsExactly(others.get(0));
		assertThat(page3.get("next_cursor").isNull()).isTrue();
		assertProblem(this.api.get("/api/matches?cursor=not-a-cursor", ana), 400);
		assertProblem(this.api.get("/api/matches?limit=0", ana), 400);

		long matchId = page1.get("matches").get(0).get("match_id").asLong();
		assertProblem(this.api.delete("/api/matches/" + matchId, others.get(0)), 404);
		assertThat(this.api.delete("/api/matches/" + matchId, ana).status()).isEqualTo(204);
		assertThat(this.api.delete("/api/matches/" + matchId, others.get(4)).status()).isEqualTo(204);
		JsonNode after = this.json.readTree(this.api.get("/api/matches?limit=10", ana).body());
		assertThat(userIds(after)).containsExactly(others.get(3), others.get(2), others.get(1), others.get(0));
		assertThat(this.json.readTree(this.api.get("/api/matches", others.get(4)).body()).get("matches").size())
			.isZero();
		Map<String, Object> removed = this.jdbc
			.sql("SELECT * FROM match_outbox WHERE JSON_VALUE(payload, '$.match_id') = :id"
					+ " AND event_type = 'MATCH_REMOVED'")
			.param("id", matchId)
			.query()
			.singleRow();
		JsonNode payload = this.json.readTree((String) removed.get("payload"));
		assertThat(payload.get("removed_by").asLong()).isEqualTo(ana);
		assertThat(payload.has("removed_at")).isTrue();
		assertThat(count("SELECT COUNT(*) FROM matches WHERE match_id = " + matchId + " AND removed_at IS NOT NULL"))
			.isOne();
	}

	@Test
	void profilesArePutAndShownAsAPublicCardWithoutTheLocation() {
		long ana = 4_000_000_000L + System.nanoTime() % 1_000_000_000L;
		long ben = ana + 1;
		Response put = this.api.put("/api/profile", ana, """
				{"display_name":"Ana","gender":"WOMAN","interested_in":["MAN","NONBINARY"],"birth_date":"1994-03-02",
				 "location":{"lat":-47.9811,"lon":-123.4317},"age_min":25,"age_max":40,"max_distance_km":30}
				""");
		assertThat(put.status()).isEqualTo(200);
		JsonNode own = this.json.readTree(put.body());
		assertThat(own.get("geohash").asString()).isEqualTo(Geohash.encode(-47.9811, -123.4317, 9));
		assertThat(own.get("interested_in").size()).isEqualTo(2);
		this.api.put("/api/profile", ben, """
				{"display_name":"Ben","gender":"MAN","interested_in":["WOMAN"],"birth_date":"1990-01-01",
				 "location":{"lat":-48.1,"lon":-123.3},"age_min":25,"age_max":40,"max_distance_km":30}
				""");
		Response card = this.api.get("/api/profiles/" + ana, ben);
		assertThat(card.status()).isEqualTo(200);
		assertThat(card.body()).doesNotContain("47.98")
			.doesNotContain("123.43")
			.doesNotContain(own.get("geohash").asString().substring(0, 4));
		JsonNode shown = this.json.readTree(card.body());
		assertThat(shown.get("display_name").asString()).isEqualTo("Ana");
		// between the centres of the two people's grid cells (LocationGridTests)
		assertThat(shown.get("distance_km").asInt())
			.isEqualTo(this.grid.shownDistanceKm(-47.9811, -123.4317, -48.1, -123.3));
		assertThat(shown.has("birth_date")).isFalse();
		assertThat(shown.get("age").asInt()).isGreaterThanOrEqualTo(32);

		assertProblem(this.api.get("/api/profiles/123", ben), 404);
		assertProblem(this.api.put("/api/profile", ana, "{\"display_name\":\"Ana\"}"), 400);
		Response robot = this.api.put("/api/profile", ana, """
				{"display_name":"Ana","gender":"ROBOT","interested_in":["MAN"],"birth_date":"1994-03-02",
				 "location":{"lat":-47.9811,"lon":-123.4317},"age_min":25,"age_max":40,"max_distance_km":30}
				""");
		assertProblem(robot, 400);
		assertThat(this.json.readTree(robot.body()).get("detail").asString())
			.isEqualTo("gender must be one of [WOMAN, MAN, NONBINARY]");
		Response alien = this.api.put("/api/profile", ana, """
				{"display_name":"Ana","gender":"WOMAN","interested_in":["MAN","ALIEN"],"birth_date":"1994-03-02",
				 "location":{"lat":-47.9811,"lon":-123.4317},"age_min":25,"age_max":40,"max_distance_km":30}
				""");
		assertProblem(alien, 400);
		assertThat(this.json.readTree(alien.body()).get("detail").asString())
			.isEqualTo("interested_in[1] must be one of [WOMAN, MAN, NONBINARY]");
		assertProblem(this.api.put("/api/profile", ana, """
				{"display_name":"Ana","gender":"WOMAN","interested_in":["MAN"],"birth_date":"1994-03-02",
				 "location":{"lat":152.52,"lon":-123.4317},"age_min":25,"age_max":40,"max_distance_km":30}
				"""), 400);
		assertProblem(this.api.put("/api/profile", ana, """
				{"display_name":"Kid","gender":"WOMAN","interested_in":["MAN"],"birth_date":"%s",
				 "location":{"lat":-47.9811,"lon":-123.4317},"age_min":18,"age_max":40,"max_distance_km":30}
				""".formatted(LocalDate.now(ZoneOffset.UTC).minusYears(15))), 422);
	}

	@Test
	void everyCallNeedsAValidToken() {
		long ana = newUser();
		Response anonymous = this.api.http().get("/api/matches", null);
		assertProblem(anonymous, 401);
		assertThat(anonymous.header("WWW-Authenticate").orElseThrow()).startsWith("Bearer");
		assertThat(status(TestTokens.signed(TestTokens.SECRET, String.valueOf(ana), Instant.now().minusSeconds(300))))
			.as("expired")
			.isEqualTo(401);
		assertThat(status(TestTokens.signed("another-secret-that-is-long-enough-for-hs256!!", String.valueOf(ana),
				Instant.now().plusSeconds(300))))
			.as("signed with another key")
			.isEqualTo(401);
		assertThat(status(TestTokens.unsigned(ana))).as("alg none").isEqualTo(401);
		assertThat(status(TestTokens.signed(TestTokens.SECRET, null, Instant.now().plusSeconds(300)))).as("no sub")
			.isEqualTo(401);
		assertThat(status(TestTokens.signed(TestTokens.SECRET, "ana", Instant.now().plusSeconds(300))))
			.as("sub not a user id")
			.isEqualTo(401);
		assertThat(status(TestTokens.signed(TestTokens.SECRET, String.valueOf(ana), null))).as("no exp").isEqualTo(401);
		assertThat(status("not.a.jwt")).isEqualTo(401);
		assertThat(status(TestTokens.forUser(ana))).isEqualTo(200);
	}

	private int status(String token) {
		return this.api.http().get("/api/matches", token).status();
	}

	private List<Long> userIds(JsonNode page) {
		return page.get("matches").valueStream().map((m) -> m.get("user_id").asLong()).toList();
	}

	private void assertProblem(Response response, int status) {
		assertThat(response.status()).as(response.body()).isEqualTo(status);
		assertThat(response.header("Content-Type").orElseThrow()).startsWith("application/problem+json");
		JsonNode problem = this.json.readTree(response.body());
		assertThat(problem.get("status").asInt()).isEqualTo(status);
		assertThat(problem.has("title")).isTrue();
		assertThat(problem.has("detail")).isTrue();
		// RFC 9457's four members, the type naming the kind of problem (the 401 and
		// 413 written by filters too)
		assertThat(problem.get("type").asString()).as(response.body())
			.matches("https://kindling\\.io/problems/[a-z0-9-]+");
	}

	private long count(String sql) {
		return this.jdbc.sql(sql).query(Long.class).single();
	}

}
