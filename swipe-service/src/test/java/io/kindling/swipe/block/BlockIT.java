package io.kindling.swipe.block;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.kindling.infra.http.Response;
import io.kindling.swipe.match.MatchRemoved;
import io.kindling.swipe.match.RemovalReason;
import io.kindling.swipe.swipe.SwipeTestBase;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Blocks and reports through the HTTP API on real servers: idempotent, paged, hidden both
 * ways, a standing match ended with its event, refusals as problem details that change
 * nothing.
 */
class BlockIT extends SwipeTestBase {

	@Autowired
	JsonMapper json;

	@Test
	void aBlockIsCreatedOnceAndLiftedWithNoContent() {
		long ana = newUser();
		long ben = newUser();

		Response first = this.api.block(ana, ben);
		assertThat(first.status()).isEqualTo(201);
		JsonNode body = this.json.readTree(first.body());
		assertThat(body.get("user_id").asLong()).isEqualTo(ben);
		String blockedAt = body.get("blocked_at").asString();

		this.clock.advance(Duration.ofMinutes(5));
		Response again = this.api.block(ana, ben);
		assertThat(again.status()).isEqualTo(200);
		assertThat(this.json.readTree(again.body()).get("blocked_at").asString()).isEqualTo(blockedAt);
		assertThat(blocks(ana)).containsExactly(ben);
		assertThat(count("SELECT COUNT(*) FROM user_blocks WHERE user_id = " + ana)).isOne();

		assertThat(this.api.delete("/api/blocks/" + ben, ana).status()).isEqualTo(204);
		assertThat(this.api.delete("/api/blocks/" + ben, ana).status()).isEqualTo(204);
		assertThat(blocks(ana)).isEmpty();
		assertThat(this.api.block(ana, ben).status()).isEqualTo(201);
	}

	@Test
	void blocksArePagedNewestFirst() {
		long ana = newUser();
		List<Long> others = newUsers(5);
		for (long other : others) {
			assertThat(this.api.block(ana, other).status()).isEqualTo(201);
			this.clock.advance(Duration.ofSeconds(1));
		}
		JsonNode page1 = this.json.readTree(this.api.get("/api/blocks?limit=2", ana).body());
		assertThat(userIds(page1)).containsExactly(others.get(4), others.get(3));
		JsonNode page2 = this.json
			.readTree(this.api.get("/api/blocks?limit=2&cursor=" + page1.get("next_cursor").asString(), ana).body());
		assertThat(userIds(page2)).containsExactly(others.get(2), others.get(1));
		JsonNode page3 = this.json
			.readTree(this.api.get("/api/blocks?limit=2&cursor=" + page2.get("next_cursor").asString(), ana).body());
		assertThat(userIds(page3)).containsExactly(others.get(0));
		assertThat(page3.get("next_cursor").isNull()).isTrue();
		assertThat(page1.get("blocks").get(0).has("blocked_at")).isTrue();
		// somebody else's list is their own
		assertThat(this.json.readTree(this.api.get("/api/blocks", others.get(0)).body()).get("blocks").size()).isZero();
	}

	@Test
	void aBlockHidesEachProfileFromTheOtherUntilItIsLifted() {
		long ana = newUser();
		long ben = newUser();
		long cleo = newUser();
		assertThat(this.api.get("/api/profiles/" + ben, ana).status()).isEqualTo(200);

		this.api.block(ana, ben);

		assertProblem(this.api.get("/api/profiles/" + ben, ana), 404, "no-such-profile");
		assertProblem(this.api.get("/api/profiles/" + ana, ben), 404, "no-such-profile");
		assertThat(this.api.get("/api/profiles/" + ben, cleo).status()).isEqualTo(200);
		assertThat(this.api.get("/api/profiles/" + ana, cleo).status()).isEqualTo(200);

		this.api.delete("/api/blocks/" + ben, ana);
		assertThat(this.api.get("/api/profiles/" + ben, ana).status()).isEqualTo(200);
		assertThat(this.api.get("/api/profiles/" + ana, ben).status()).isEqualTo(200);
	}

	@Test
	void aBlockEndsTheStandingMatchWithItsEventAndTheTwoNeverMatchAgain() {
		long ana = newUser();
		long ben = newUser();
		this.api.swipe(ana, key(), ben, "LIKE");
		JsonNode matched = this.json.readTree(this.api.swipe(ben, key(), ana, "LIKE").body());
		assertThat(matched.get("matched").asBoolean()).isTrue();
		long matchId = matched.get("match_id").asLong();

		assertThat(this.api.block(ben, ana).status()).isEqualTo(201);

		assertThat(this.json.readTree(this.api.get("/api/matches", ana).body()).get("matches").size()).isZero();
		assertThat(this.json.readTree(this.api.get("/api/matches", ben).body()).get("matches").size()).isZero();
		assertThat(this.jdbc.sql("SELECT removed_by, removal_reason FROM matches WHERE match_id = :id")
			.param("id", matchId)
			.query()
			.singleRow()).containsEntry("removed_by", ben).containsEntry("removal_reason", "BLOCKED");
		JsonNode event = this.json.readTree(this.jdbc
			.sql("SELECT payload FROM match_outbox WHERE event_type = 'MATCH_REMOVED' AND event_key = :key")
			.param("key", Math.min(ana, ben) + ":" + Math.max(ana, ben))
			.query(String.class)
			.single());
		assertThat(event.get("reason").asString()).isEqualTo("BLOCKED");
		assertThat(event.get("removed_by").asLong()).isEqualTo(ben);
		assertThat(event.get("match_id").asLong()).isEqualTo(matchId);
		assertThat(event.has("removed_at")).isTrue();
		List<MatchRemoved> published = this.removedMatches.of(matchId);
		assertThat(published).singleElement().satisfies((removed) -> {
			assertThat(removed.reason()).isEqualTo(RemovalReason.BLOCKED);
			assertThat(removed.removedBy()).isEqualTo(ben);
			assertThat(removed.otherThan(ben)).isEqualTo(ana);
		});

		// blocking again, unmatching the ended match: nothing more happens
		assertThat(this.api.block(ben, ana).status()).isEqualTo(200);
		assertThat(this.api.delete("/api/matches/" + matchId, ana).status()).isEqualTo(204);
		assertThat(count("SELECT COUNT(*) FROM match_outbox WHERE event_type = 'MATCH_REMOVED' AND event_key = '"
				+ Math.min(ana, ben) + ":" + Math.max(ana, ben) + "'"))
			.isOne();
		assertThat(this.removedMatches.of(matchId)).hasSize(1);

		// lifted, and Ana takes her like back and likes again: an ended match is not
		// made again
		this.api.delete("/api/blocks/" + ana, ben);
		assertThat(this.api.delete("/api/swipes/last", ana).status()).isEqualTo(204);
		JsonNode again = this.json.readTree(this.api.swipe(ana, key(), ben, "LIKE").body());
		assertThat(again.get("matched").asBoolean()).isFalse();
		assertThat(count("SELECT COUNT(*) FROM matches WHERE match_id = " + matchId + " AND removed_at IS NULL"))
			.isZero();
	}

	@Test
	void anUnmatchSaysSoInItsEvent() {
		long ana = newUser();
		long ben = newUser();
		this.api.swipe(ana, key(), ben, "LIKE");
		long matchId = this.json.readTree(this.api.swipe(ben, key(), ana, "LIKE").body()).get("match_id").asLong();

		assertThat(this.api.delete("/api/matches/" + matchId, ana).status()).isEqualTo(204);

		JsonNode event = this.json.readTree(this.jdbc
			.sql("SELECT payload FROM match_outbox WHERE event_type = 'MATCH_REMOVED' AND event_key = :key")
			.param("key", Math.min(ana, ben) + ":" + Math.max(ana, ben))
			.query(String.class)
			.single());
		assertThat(event.get("reason").asString()).isEqualTo("UNMATCHED");
		assertThat(event.get("removed_by").asLong()).isEqualTo(ana);
		assertThat(this.removedMatches.of(matchId)).singleElement()
			.satisfies((removed) -> assertThat(removed.reason()).isEqualTo(RemovalReason.UNMATCHED));
		assertThat(this.jdbc.sql("SELECT removal_reason FROM matches WHERE match_id = :id")
			.param("id", matchId)
			.query(String.class)
			.single()).isEqualTo("UNMATCHED");
	}

	@Test
	void badBlocksAreRefusedWithProblemDetailsAndChangeNothing() {
		long ana = newUser();
		long nobody = 999_999_999_999L;
		assertProblem(this.api.block(ana, ana), 400, "bad-block");
		assertProblem(this.api.block(ana, 0), 400, "bad-block");
		assertProblem(this.api.block(ana, -5), 400, "bad-block");
		assertProblem(this.api.post("/api/blocks", ana, "{}"), 400, "bad-block");
		assertProblem(this.api.post("/api/blocks", ana, "{\"user_id\":\"x\"}"), 400, "unreadable-request-body");
		assertProblem(this.api.block(ana, nobody), 422, "unknown-target");
		assertProblem(this.api.get("/api/blocks?cursor=not-a-cursor", ana), 400, "bad-cursor");
		assertThat(this.api.get("/api/blocks?limit=0", ana).status()).isEqualTo(400);
		assertProblem(this.api.delete("/api/blocks/abc", ana), 400, "invalid-request");
		Response anonymous = this.api.http().send("POST", "/api/blocks", null, "{}");
		assertThat(anonymous.status()).isEqualTo(401);
		assertThat(count("SELECT COUNT(*) FROM user_blocks WHERE user_id = " + ana)).isZero();
		assertThat(count("SELECT COUNT(*) FROM pair_locks WHERE user_id_1 = " + ana + " OR user_id_2 = " + ana))
			.isZero();
	}

	@Test
	void aReportIsKeptForModerationAndBlocks() {
		long ana = newUser();
		long ben = newUser();
		this.api.swipe(ana, key(), ben, "LIKE");
		long matchId = this.json.readTree(this.api.swipe(ben, key(), ana, "LIKE").body()).get("match_id").asLong();

		Response reported = this.api.post("/api/reports", ana,
				"{\"user_id\":" + ben + ",\"reason\":\"harassment\",\"details\":\"  rude messages  \"}");

		assertThat(reported.status()).as(reported.body()).isEqualTo(201);
		JsonNode report = this.json.readTree(reported.body());
		assertThat(report.get("user_id").asLong()).isEqualTo(ben);
		assertThat(report.get("reason").asString()).isEqualTo("HARASSMENT");
		assertThat(report.get("created_at").isString()).isTrue();
		assertThat(this.jdbc
			.sql("SELECT reporter_id, reported_user_id, reason, details FROM user_reports" + " WHERE report_id = :id")
			.param("id", report.get("report_id").asLong())
			.query()
			.singleRow()).containsEntry("reporter_id", ana)
			.containsEntry("reported_user_id", ben)
			.containsEntry("reason", "HARASSMENT")
			.containsEntry("details", "rude messages");
		assertThat(blocks(ana)).containsExactly(ben);
		assertProblem(this.api.get("/api/profiles/" + ana, ben), 404, "no-such-profile");
		assertThat(this.removedMatches.of(matchId)).singleElement()
			.satisfies((removed) -> assertThat(removed.reason()).isEqualTo(RemovalReason.BLOCKED));

		// a second report is kept too; the block stays one
		assertThat(this.api
			.post("/api/reports", ana, "{\"user_id\":" + ben + ",\"reason\":\"SPAM_OR_SCAM\",\"details\":null}")
			.status()).isEqualTo(201);
		assertThat(count("SELECT COUNT(*) FROM user_reports WHERE reporter_id = " + ana)).isEqualTo(2);
		assertThat(count("SELECT COUNT(*) FROM user_blocks WHERE user_id = " + ana)).isOne();
	}

	@Test
	void badReportsAreRefusedWithProblemDetailsAndChangeNothing() {
		long ana = newUser();
		long ben = newUser();
		long nobody = 999_999_999_998L;
		assertProblem(report(ana, ben, "\"RUDE\"", null), 400, "bad-report");
		assertProblem(report(ana, ben, "null", null), 400, "bad-report");
		assertProblem(report(ana, ben, "\"HARASSMENT\"", "\"" + "x".repeat(1001) + "\""), 400, "bad-report");
		assertProblem(report(ana, ana, "\"HARASSMENT\"", null), 400, "bad-report");
		assertProblem(report(ana, 0, "\"HARASSMENT\"", null), 400, "bad-report");
		assertProblem(this.api.post("/api/reports", ana, "{\"reason\":\"OTHER\"}"), 400, "bad-report");
		assertProblem(report(ana, nobody, "\"HARASSMENT\"", null), 422, "unknown-target");
		assertProblem(report(ana, ben, "7", null), 400, "unreadable-request-body");
		assertThat(count("SELECT COUNT(*) FROM user_reports WHERE reporter_id = " + ana)).isZero();
		assertThat(count("SELECT COUNT(*) FROM user_blocks WHERE user_id = " + ana)).isZero();
		// exactly 1,000 characters is fine
		assertThat(report(ana, ben, "\"OTHER\"", "\"" + "x".repeat(1000) + "\"").status()).isEqualTo(201);
	}

	private Response report(long reporter, long reported, String reasonJson, String detailsJson) {
		return this.api.post("/api/reports", reporter, "{\"user_id\":" + reported + ",\"reason\":" + reasonJson
				+ ((detailsJson != null) ? ",\"details\":" + detailsJson : "") + "}");
	}

	private List<Long> blocks(long userId) {
		return userIds(this.json.readTree(this.api.get("/api/blocks?limit=100", userId).body()));
	}

	private static List<Long> userIds(JsonNode page) {
		List<Long> ids = new ArrayList<>();
		JsonNode list = page.has("blocks") ? page.get("blocks") : page.get("matches");
		list.forEach((entry) -> ids.add(entry.get("user_id").asLong()));
		return ids;
	}

	private void assertProblem(Response response, int status, String type) {
		assertThat(response.status()).as(response.body()).isEqualTo(status);
		assertThat(response.header("Content-Type").orElseThrow()).startsWith("application/problem+json");
		assertThat(this.json.readTree(response.body()).get("type").asString())
			.isEqualTo("https://kindling.io/problems/" + type);
	}

	private long count(String sql) {
		return this.jdbc.sql(sql).query(Long.class).single();
	}

}
