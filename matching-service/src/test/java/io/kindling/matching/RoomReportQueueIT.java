package io.kindling.matching;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.kindling.infra.http.Response;
import io.kindling.matching.queue.RedisKeys;
import io.kindling.matching.session.Session;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The moderators' queue of room reports, through HTTP on real Redis and MariaDB, in the
 * shape of swipe-service's: open reports oldest first, each resolved once; a {@code BAN}
 * bans the reported session (out of its queue at once) and resolves the other reports
 * about it.
 */
class RoomReportQueueIT extends RoomFeatureTest {

	@Test
	void openReportsComeOldestFirstAndAreDismissedOnce() {
		String reported = this.api.session();
		String first = this.api.session();
		String second = this.api.session();
		RoomFeatures.shareARoom(this.api, reported, first, 3);
		RoomFeatures.shareARoom(this.api, reported, second, 3);
		assertThat(report(first, "SPAM").status()).isEqualTo(201);
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(report(second, "HATE").status()).isEqualTo(201);

		List<JsonNode> ours = allOpen().stream()
			.filter((report) -> report.get("session_key").asString().equals(Session.keyOf(reported)))
			.toList();

		assertThat(ours).extracting((report) -> report.get("reporter_session_key").asString())
			.containsExactly(Session.keyOf(first), Session.keyOf(second));
		JsonNode oldest = ours.get(0);
		assertThat(oldest.get("reason").asString()).isEqualTo("SPAM");
		assertThat(oldest.get("status").asString()).isEqualTo("open");
		assertThat(oldest.get("room_id").asString()).hasSize(36);
		assertThat(oldest.get("last_messages").isArray()).isTrue();
		assertThat(oldest.toString()).doesNotContain(reported).doesNotContain(first);

		long id = oldest.get("report_id").asLong();
		Response dismissed = admin("POST", "/api/admin/reports/" + id + "/resolution",
				"{\"action\":\"DISMISS\",\"note\":\"banter\"}");
		assertThat(dismissed.status()).as(dismissed.body()).isEqualTo(200);
		assertThat(dismissed.field("status")).isEqualTo("resolved");
		assertThat(dismissed.field("resolution")).isEqualTo("DISMISS");
		assertThat(dismissed.field("note")).isEqualTo("banter");
		assertProblem(admin("POST", "/api/admin/reports/" + id + "/resolution", "{\"action\":\"BAN\"}"), 409,
				"report-resolved");
		assertProblem(admin("POST", "/api/admin/reports/999999999/resolution", "{\"action\":\"BAN\"}"), 404,
				"no-such-report");
		assertThat(allOpen()).extracting((report) -> report.get("report_id").asLong()).doesNotContain(id);
		assertThat(page("/api/admin/reports?status=resolved&limit=1").get("reports").get(0).get("report_id").asLong())
			.isEqualTo(id);
		assertThat(bans(Session.keyOf(reported))).isZero();
	}

	@Test
	void aBanBansTheReportedSessionAtOnceAndResolvesItsOtherReports() {
		String reported = this.api.session();
		String first = this.api.session();
		String second = this.api.session();
		RoomFeatures.shareARoom(this.api, reported, first, 4);
		RoomFeatures.shareARoom(this.api, reported, second, 4);
		report(first, "HARASSMENT");
		report(second, "HARASSMENT");
		List<Long> ids = allOpen().stream()
			.filter((report) -> report.get("session_key").asString().equals(Session.keyOf(reported)))
			.map((report) -> report.get("report_id").asLong())
			.toList();
		assertThat(ids).hasSize(2);
		assertThat(this.api.join(reported, 42, 3).status()).isEqualTo(202);

		Response banned = admin("POST", "/api/admin/reports/" + ids.get(0) + "/resolution",
				"{\"action\":\"BAN\",\"note\":\"threats\"}");

		assertThat(banned.status()).as(banned.body()).isEqualTo(200);
		assertThat(bans(Session.keyOf(reported))).isOne();
		assertThat(this.redis.opsForZSet().size(RedisKeys.queue(42, 3))).as("out of its queue").isZero();
		assertProblem(this.api.join(reported, 42, 3), 403, "banned");
		assertThat(allOpen()).extracting((report) -> report.get("report_id").asLong()).doesNotContainAnyElementsOf(ids);
		assertThat(this.jdbc.sql("SELECT resolution FROM room_reports WHERE id = :id")
			.param("id", ids.get(1))
			.query(String.class)
			.single()).isEqualTo("BAN");
	}

	@Test
	void theQueueIsTheOperatorsAlone() {
		String session = this.api.session();
		assertThat(this.api.send("GET", "/api/admin/reports", null, null).status()).isEqualTo(401);
		assertThat(this.api.send("GET", "/api/admin/reports", session, null).status()).isEqualTo(401);
		assertProblem(admin("GET", "/api/admin/reports?status=closed", null), 400, "invalid-request");
		assertThat(admin("GET", "/api/admin/reports?limit=0", null).status()).isEqualTo(400);
		assertThat(admin("POST", "/api/admin/reports/1/resolution", "{\"action\":\"WARN\"}").status()).isEqualTo(400);
		String reported = this.api.session();
		String other = this.api.session();
		RoomFeatures.shareARoom(this.api, reported, session, 4);
		RoomFeatures.shareARoom(this.api, reported, other, 4);
		report(session, "SPAM");
		report(other, "SPAM");
		JsonNode first = page("/api/admin/reports?limit=1");
		assertThat(first.get("next_cursor").isNull()).isFalse();
		assertProblem(
				admin("GET", "/api/admin/reports?status=resolved&cursor=" + first.get("next_cursor").asString(), null),
				400, "bad-cursor");
		assertProblem(admin("GET", "/api/admin/reports?cursor=bogus", null), 400, "bad-cursor");
	}

	private List<JsonNode> allOpen() {
		List<JsonNode> reports = new ArrayList<>();
		String cursor = null;
		do {
			JsonNode page = page("/api/admin/reports?limit=100" + ((cursor != null) ? "&cursor=" + cursor : ""));
			page.get("reports").forEach(reports::add);
			cursor = page.get("next_cursor").isNull() ? null : page.get("next_cursor").asString();
		}
		while (cursor != null);
		return reports;
	}

	private JsonNode page(String path) {
		Response response = admin("GET", path, null);
		assertThat(response.status()).as(response.body()).isEqualTo(200);
		return response.json();
	}

	private Response admin(String method, String path, String body) {
		return RoomFeatures.admin(this.api, method, path, body);
	}

	private Response report(String token, String reason) {
		return this.api.send("POST", "/api/matching/reports", token, "{\"reason\":\"" + reason + "\"}");
	}

	private long bans(String sessionKey) {
		return this.jdbc.sql("SELECT COUNT(*) FROM bans WHERE ban_type = 'SESSION' AND subject = :key")
			.param("key", sessionKey)
			.query(Long.class)
			.single();
	}

	private static void assertProblem(Response response, int status, String type) {
		assertThat(response.status()).as(response.body()).isEqualTo(status);
		assertThat(response.header("Content-Type").orElseThrow()).startsWith("application/problem+json");
		assertThat(response.field("type")).isEqualTo("https://kindling.io/problems/" + type);
	}

}
