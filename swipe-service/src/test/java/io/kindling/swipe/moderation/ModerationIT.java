package io.kindling.swipe.moderation;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import io.kindling.infra.http.EventStream;
import io.kindling.infra.http.Request;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServerSentEvent;
import io.kindling.swipe.TestTokens;
import io.kindling.swipe.geo.Geohash;
import io.kindling.swipe.match.RemovalReason;
import io.kindling.swipe.swipe.SwipeTestBase;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The operators' API of swipe-service on real servers: the report queue, user bans and
 * the audit; what a ban does to the banned user (refused everywhere, streams ended, gone
 * from decks and likes, matches ended as {@code BANNED}) and that lifting it gives back
 * nothing it ended.
 */
class ModerationIT extends SwipeTestBase {

	/** The token the tests' application.properties sets. */
	static final String TOKEN = "test-operators-token";

	@Autowired
	JsonMapper json;

	@Test
	void theAdminApiOpensWithTheOperatorsTokenAndNothingElse() {
		long ana = newUser();
		assertProblem(this.api.http().get("/api/admin/reports", null), 401, "unauthenticated");
		assertProblem(this.api.get("/api/admin/reports", ana), 401, "unauthenticated");
		assertProblem(this.api.http().get("/api/admin/user-bans", "not-the-token"), 401, "unauthenticated");
		assertProblem(this.api.http().get("/api/admin/audit", TOKEN + "x"), 401, "unauthenticated");
		assertThat(this.api.http().get("/api/admin/reports", null).header("WWW-Authenticate"))
			.hasValueSatisfying((value) -> assertThat(value).startsWith("Bearer"));

		assertThat(admin("GET", "/api/admin/reports", null).status()).isEqualTo(200);
		// and the token opens no user's API
		assertProblem(this.api.http().get("/api/matches", TOKEN), 401, "unauthenticated");
	}

	@Test
	void openReportsComeOldestFirstInPagesAndAreResolvedOnce() {
		List<Long> users = newUsers(5);
		long first = report(users.get(0), users.get(3), "SPAM_OR_SCAM", "links to a shop");
		this.clock.advance(Duration.ofSeconds(1));
		long second = report(users.get(1), users.get(4), "FAKE_PROFILE", null);
		this.clock.advance(Duration.ofSeconds(1));
		long third = report(users.get(2), users.get(3), "HARASSMENT", null);

		List<JsonNode> open = allOpen();
		List<Long> ours = open.stream()
			.map((report) -> report.get("report_id").asLong())
			.filter((id) -> id == first || id == second || id == third)
			.toList();
		assertThat(ours).containsExactly(first, second, third);
		JsonNode shown = open.stream().filter((report) -> report.get("report_id").asLong() == first).findFirst().get();
		assertThat(shown.get("user_id").asLong()).isEqualTo(users.get(3));
		assertThat(shown.get("reporter_user_id").asLong()).isEqualTo(users.get(0));
		assertThat(shown.get("reason").asString()).isEqualTo("SPAM_OR_SCAM");
		assertThat(shown.get("details").asString()).isEqualTo("links to a shop");
		assertThat(shown.get("status").asString()).isEqualTo("open");
		assertThat(shown.has("created_at")).isTrue();

		Response dismissed = admin("POST", "/api/admin/reports/" + second + "/resolution",
				"{\"action\":\"DISMISS\",\"note\":\"a real person\"}");
		assertThat(dismissed.status()).isEqualTo(200);
		JsonNode resolved = this.json.readTree(dismissed.body());
		assertThat(resolved.get("status").asString()).isEqualTo("resolved");
		assertThat(resolved.get("resolution").asString()).isEqualTo("DISMISS");
		assertThat(resolved.get("note").asString()).isEqualTo("a real person");
		assertThat(resolved.get("resolved_by").asString()).isEqualTo(tokenId());

		assertProblem(admin("POST", "/api/admin/reports/" + second + "/resolution", "{\"action\":\"BAN\"}"), 409,
				"report-resolved");
		assertProblem(admin("POST", "/api/admin/reports/999999999999/resolution", "{\"action\":\"DISMISS\"}"), 404,
				"no-such-report");
		assertProblem(admin("POST", "/api/admin/reports/" + first + "/resolution", "{\"action\":\"WARN\"}"), 400,
				"unreadable-request-body");
		assertThat(allOpen().stream().map((report) -> report.get("report_id").asLong())).doesNotContain(second)
			.contains(first, third);
		JsonNode resolvedPage = page("/api/admin/reports?status=resolved&limit=1");
		assertThat(resolvedPage.get("reports").get(0).get("report_id").asLong()).isEqualTo(second);
		// a dismissed report bans nobody
		assertThat(this.api.get("/api/matches", users.get(4)).status()).isEqualTo(200);

		String openCursor = page("/api/admin/reports?limit=1").get("next_cursor").asString();
		assertProblem(admin("GET", "/api/admin/reports?status=resolved&cursor=" + openCursor, null), 400, "bad-cursor");
		assertProblem(admin("GET", "/api/admin/reports?status=closed", null), 400, "invalid-request");
	}

	@Test
	void aBanFromAReportSuspendsTheUserEndsTheirMatchesAndHidesThemUntilItIsLifted() throws Exception {
		List<Long> users = newUsers(5);
		long ben = users.get(0);
		long ana = users.get(1);
		long cleo = users.get(2);
		long dev = users.get(3);
		long eve = users.get(4);
		this.api.swipe(ben, key(), cleo, "LIKE");
		long matchId = this.json.readTree(this.api.swipe(cleo, key(), ben, "LIKE").body()).get("match_id").asLong();
		this.api.swipe(ben, key(), dev, "LIKE");
		assertThat(likers(dev)).containsExactly(ben);
		long anasReport = report(ana, ben, "HARASSMENT", "threats");
		long evesReport = report(eve, ben, "HARASSMENT", null);
		EventStream stream = this.api.http()
			.events(Request.get("/api/events").bearer(TestTokens.forUser(ben)))
			.awaitFirstLine(":subscribed");
		stream.nextEvent("position");

		Response banned = admin("POST", "/api/admin/reports/" + anasReport + "/resolution",
				"{\"action\":\"BAN\",\"note\":\"repeated threats\"}");

		assertThat(banned.status()).as(banned.body()).isEqualTo(200);
		ServerSentEvent last = stream.nextEvent();
		while (!"account_suspended".equals(last.name())) {
			last = stream.nextEvent();
		}
		assertThat(stream.awaitEnd(Duration.ofSeconds(10))).as("the banned user's stream ended").isTrue();
		assertProblem(this.api.get("/api/matches", ben), 403, "account-suspended");
		assertProblem(this.api.swipe(ben, key(), eve, "LIKE"), 403, "account-suspended");
		assertProblem(this.api.http().get("/api/events", TestTokens.forUser(ben)), 403, "account-suspended");
		// gone for everyone else: the match ended as BANNED, the like, the card
		assertThat(this.json.readTree(this.api.get("/api/matches", cleo).body()).get("matches").size()).isZero();
		assertThat(this.jdbc.sql("SELECT removed_by, removal_reason FROM matches WHERE match_id = :id")
			.param("id", matchId)
			.query()
			.singleRow()).containsEntry("removed_by", ben).containsEntry("removal_reason", "BANNED");
		JsonNode event = this.json.readTree(this.jdbc
			.sql("SELECT payload FROM match_outbox WHERE event_type = 'MATCH_REMOVED' AND event_key = :key")
			.param("key", Math.min(ben, cleo) + ":" + Math.max(ben, cleo))
			.query(String.class)
			.single());
		assertThat(event.get("reason").asString()).isEqualTo("BANNED");
		assertThat(this.removedMatches.of(matchId)).singleElement()
			.satisfies((removed) -> assertThat(removed.reason()).isEqualTo(RemovalReason.BANNED));
		assertThat(likers(dev)).isEmpty();
		assertProblem(this.api.swipe(dev, key(), ben, "LIKE"), 422, "unknown-target");
		// the other open report about him went with this one
		JsonNode eves = resolvedReport(evesReport);
		assertThat(eves.get("resolution").asString()).isEqualTo("BAN");
		assertThat(this.jdbc.sql("SELECT report_id, banned_by FROM user_bans WHERE user_id = :id")
			.param("id", ben)
			.query()
			.singleRow()).containsEntry("report_id", anasReport).containsEntry("banned_by", tokenId());

		assertThat(admin("DELETE", "/api/admin/user-bans/" + ben, null).status()).isEqualTo(204);

		assertThat(this.api.get("/api/matches", ben).status()).isEqualTo(200);
		assertThat(this.json.readTree(this.api.get("/api/matches", ben).body()).get("matches").size())
			.as("nothing the ban ended comes back")
			.isZero();
		assertThat(this.json.readTree(this.api.get("/api/matches", cleo).body()).get("matches").size()).isZero();
		assertThat(likers(dev)).containsExactly(ben);
		assertProblem(admin("DELETE", "/api/admin/user-bans/" + ben, null), 404, "no-such-ban");
		stream.close();
	}

	@Test
	void userBansAreMadeOnceListedAndEndByThemselves() {
		long ana = newUser();
		Instant inAnHour = this.clock.instant().plus(Duration.ofHours(1)).truncatedTo(ChronoUnit.SECONDS);

		Response made = admin("POST", "/api/admin/user-bans",
				"{\"user_id\":" + ana + ",\"reason\":\"spam\",\"expires_at\":\"" + inAnHour + "\"}");

		assertThat(made.status()).as(made.body()).isEqualTo(201);
		JsonNode ban = this.json.readTree(made.body());
		assertThat(ban.get("user_id").asLong()).isEqualTo(ana);
		assertThat(ban.get("active").asBoolean()).isTrue();
		assertThat(ban.get("banned_by").asString()).isEqualTo(tokenId());
		assertThat(Instant.parse(ban.get("expires_at").asString())).isEqualTo(inAnHour);
		assertProblem(this.api.get("/api/deck", ana), 403, "account-suspended");
		assertProblem(admin("POST", "/api/admin/user-bans", "{\"user_id\":" + ana + ",\"reason\":\"again\"}"), 409,
				"already-banned");
		assertProblem(
				admin("POST", "/api/admin/user-bans",
						"{\"user_id\":" + newUser() + ",\"reason\":\"x\",\"expires_at\":\"2020-01-01T00:00:00Z\"}"),
				400, "bad-ban");
		assertProblem(admin("POST", "/api/admin/user-bans", "{\"user_id\":0,\"reason\":\"x\"}"), 400, "bad-ban");
		assertProblem(admin("POST", "/api/admin/user-bans", "{\"user_id\":" + newUser() + "}"), 400, "invalid-request");
		assertThat(listedBan(ana).get("active").asBoolean()).isTrue();

		this.clock.advance(Duration.ofHours(2));

		assertThat(this.api.get("/api/matches", ana).status()).isEqualTo(200);
		assertThat(listedBan(ana).get("active").asBoolean()).isFalse();
		assertThat(
				admin("POST", "/api/admin/user-bans", "{\"user_id\":" + ana + ",\"reason\":\"spam again\"}").status())
			.isEqualTo(201);
		assertProblem(this.api.get("/api/matches", ana), 403, "account-suspended");
		assertThat(listedBan(ana).get("reason").asString()).isEqualTo("spam again");
		assertThat(admin("DELETE", "/api/admin/user-bans/" + ana, null).status()).isEqualTo(204);
		assertThat(this.api.get("/api/matches", ana).status()).isEqualTo(200);
	}

	@Test
	void aBannedUserLeavesADeckBuiltBeforeTheBan() {
		double[] place = { -55 + ThreadLocalRandom.current().nextDouble(5),
				-150 + ThreadLocalRandom.current().nextDouble(40) };
		long viewer = profileAt(place, 1000);
		long banned = profileAt(place, 500);
		List<Long> others = List.of(profileAt(place, 1500), profileAt(place, 1500), profileAt(place, 1500));
		// the first card is one of the others (the banned one ranks last); the rest of
		// the
		// deck, the banned user among it, waits in Redis
		long firstCard = cards(viewer, 1).get(0);
		assertThat(others).contains(firstCard);

		assertThat(admin("POST", "/api/admin/user-bans", "{\"user_id\":" + banned + ",\"reason\":\"fake\"}").status())
			.isEqualTo(201);

		List<Long> rest = cards(viewer, 20);
		assertThat(rest).doesNotContain(banned)
			.containsAll(others.stream().filter((other) -> other != firstCard).toList());
	}

	@Test
	void everyOperatorsCallIsAuditedByTheTokensIdNeverTheToken() {
		long ana = newUser();
		admin("POST", "/api/admin/user-bans", "{\"user_id\":" + ana + ",\"reason\":\"bot\"}");
		admin("GET", "/api/admin/user-bans", null);
		admin("DELETE", "/api/admin/user-bans/" + ana, null);

		Response audit = admin("GET", "/api/admin/audit?limit=4", null);

		assertThat(audit.status()).isEqualTo(200);
		assertThat(audit.body()).doesNotContain(TOKEN);
		JsonNode entries = this.json.readTree(audit.body()).get("entries");
		List<String> actions = new ArrayList<>();
		entries.forEach((entry) -> {
			actions.add(entry.get("action").asString());
			assertThat(entry.get("token_id").asString()).isEqualTo(tokenId());
			assertThat(entry.has("created_at")).isTrue();
		});
		assertThat(actions).containsExactly("AUDIT_LISTED", "USER_BAN_LIFTED", "USER_BANS_LISTED", "USER_BANNED");
		assertThat(entries.get(1).get("subject").asString()).isEqualTo("user:" + ana);
		assertThat(entries.get(3).get("detail").asString()).startsWith("bot");
		assertThat(this.jdbc.sql("SELECT COUNT(*) FROM admin_audit WHERE detail LIKE :token OR token_id = :token")
			.param("token", "%" + TOKEN + "%")
			.query(Long.class)
			.single()).isZero();
		String next = this.json.readTree(audit.body()).get("next_cursor").asString();
		assertThat(admin("GET", "/api/admin/audit?limit=4&cursor=" + next, null).status()).isEqualTo(200);
	}

	private Response admin(String method, String path, @Nullable String body) {
		return this.api.http().send(method, path, TOKEN, body);
	}

	private JsonNode page(String path) {
		Response response = admin("GET", path, null);
		assertThat(response.status()).as(response.body()).isEqualTo(200);
		return this.json.readTree(response.body());
	}

	private List<JsonNode> allOpen() {
		List<JsonNode> reports = new ArrayList<>();
		String cursor = null;
		do {
			JsonNode page = page(
					"/api/admin/reports?status=open&limit=100" + ((cursor != null) ? "&cursor=" + cursor : ""));
			page.get("reports").forEach(reports::add);
			cursor = page.get("next_cursor").isNull() ? null : page.get("next_cursor").asString();
		}
		while (cursor != null);
		return reports;
	}

	private JsonNode resolvedReport(long reportId) {
		String cursor = null;
		do {
			JsonNode page = page(
					"/api/admin/reports?status=resolved&limit=100" + ((cursor != null) ? "&cursor=" + cursor : ""));
			for (JsonNode report : page.get("reports")) {
				if (report.get("report_id").asLong() == reportId) {
					return report;
				}
			}
			cursor = page.get("next_cursor").isNull() ? null : page.get("next_cursor").asString();
		}
		while (cursor != null);
		throw new AssertionError("report " + reportId + " is not among the resolved");
	}

	private JsonNode listedBan(long userId) {
		for (JsonNode ban : page("/api/admin/user-bans?limit=100").get("bans")) {
			if (ban.get("user_id").asLong() == userId) {
				return ban;
			}
		}
		throw new AssertionError("user " + userId + " is not among the bans");
	}

	private long report(long reporter, long reported, String reason, @Nullable String details) {
		Response response = this.api.post("/api/reports", reporter, "{\"user_id\":" + reported + ",\"reason\":\""
				+ reason + "\"" + ((details != null) ? ",\"details\":\"" + details + "\"" : "") + "}");
		assertThat(response.status()).as(response.body()).isEqualTo(201);
		return this.json.readTree(response.body()).get("report_id").asLong();
	}

	private List<Long> likers(long userId) {
		List<Long> ids = new ArrayList<>();
		this.json.readTree(this.api.get("/api/likes", userId).body())
			.get("likes")
			.forEach((like) -> ids.add(like.get("user_id").asLong()));
		return ids;
	}

	private List<Long> cards(long viewer, int limit) {
		Response deck = this.api.get("/api/deck?limit=" + limit, viewer);
		assertThat(deck.status()).as(deck.body()).isEqualTo(200);
		List<Long> ids = new ArrayList<>();
		this.json.readTree(deck.body()).get("cards").forEach((card) -> ids.add(card.get("user_id").asLong()));
		return ids;
	}

	/** A profile of its own at a place no other test uses, with this desirability. */
	private long profileAt(double[] place, double desirability) {
		long id = newUser();
		this.jdbc.sql("""
				UPDATE profiles SET lat = :lat, lon = :lon, geohash = :geohash, max_distance_km = 50,
				                    desirability = :desirability, last_active_at = :now
				WHERE user_id = :id
				""")
			.param("lat", place[0])
			.param("lon", place[1])
			.param("geohash", Geohash.encode(place[0], place[1], Geohash.STORED_PRECISION))
			.param("desirability", desirability)
			.param("now", Timestamp.from(this.clock.instant()))
			.param("id", id)
			.update();
		return id;
	}

	private static void assertProblem(Response response, int status, String slug) {
		assertThat(response.status()).as(response.body()).isEqualTo(status);
		assertThat(response.header("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/problem+json"));
		assertThat(response.body()).contains("\"type\":\"https://kindling.io/problems/" + slug + "\"");
	}

	private static String tokenId() {
		try {
			byte[] digest = MessageDigest.getInstance("SHA-256").digest(TOKEN.getBytes(StandardCharsets.UTF_8));
			return HexFormat.of().formatHex(digest, 0, 8);
		}
		catch (java.security.NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
