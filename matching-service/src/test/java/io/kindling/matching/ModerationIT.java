package io.kindling.matching;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import io.kindling.infra.http.Response;
import io.kindling.matching.queue.RedisKeys;
import io.kindling.matching.session.Session;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reports from rooms and the operators' API, through HTTP on real Redis and MariaDB:
 * reports ban a session and take it out of its queue; operators add, rename and retire
 * topics and make, list and lift bans, behind the admin token.
 */
class ModerationIT extends RoomFeatureTest {

	@Test
	void aReportNamesTheOthersOfMyLastRoomOnceAndTellsModeration() {
		String me = this.api.session();
		assertProblem(report(me, "SPAM"), 404, "no-room");
		String other = this.api.session();
		this.api.join(me, 1, 2);
		Response room = this.api.join(other, 1, 2);

		Response first = report(me, "HARASSMENT");
		assertThat(first.status()).as(first.body()).isEqualTo(201);
		assertThat(first.field("room_id")).isEqualTo(room.field("room_id"));
		assertThat(first.json().get("reported").asInt()).isEqualTo(1);
		this.api.leave(me);
		Response again = report(me, "SPAM");
		assertThat(again.status()).as("the last room, reported already").isEqualTo(200);
		assertThat(again.body()).isEqualTo(first.body());

		List<String> events = this.jdbc
			.sql("SELECT payload FROM room_outbox WHERE event_type = 'ROOM_REPORTED' AND event_key = :room")
			.param("room", room.field("room_id"))
			.query(String.class)
			.list();
		assertThat(events).hasSize(1);
		JsonNode event = Api.JSON.readTree(events.get(0));
		assertThat(event.get("reporter_key").asString()).isEqualTo(Session.keyOf(me));
		assertThat(event.get("reported_keys").get(0).asString()).isEqualTo(Session.keyOf(other));
		assertThat(event.get("reason").asString()).isEqualTo("HARASSMENT");
		assertThat(events.get(0)).doesNotContain(me).doesNotContain(other);
	}

	@Test
	void badReportsAre400AndChangeNothing() {
		long reportsBefore = this.jdbc.sql("SELECT COUNT(*) FROM room_reports").query(Long.class).single();
		String me = this.api.session();
		String other = this.api.session();
		this.api.join(me, 1, 2);
		this.api.join(other, 1, 2);
		for (String body : List.of("{}", "{\"reason\":\"RUDE\"}", "{\"reason\":1}", "{\"reason\":null}")) {
			Response refused = this.api.send("POST", "/api/matching/reports", me, body);
			assertThat(refused.status()).as(body).isEqualTo(400);
		}
		assertThat(this.api.send("POST", "/api/matching/reports", null, "{\"reason\":\"SPAM\"}").status())
			.isEqualTo(401);
		assertThat(this.jdbc.sql("SELECT COUNT(*) FROM room_reports").query(Long.class).single())
			.isEqualTo(reportsBefore);
	}

	@Test
	void theThirdReporterNetworkBansTheSessionAndTakesItOutOfItsQueue() {
		String reported = this.api.session();
		Api reportedFrom = RoomFeatures.from(this.api, 50, 1);
		List<String> reporters = List.of(this.api.session(), this.api.session(), this.api.session());
		for (String reporter : reporters) {
			RoomFeatures.shareARoom(reportedFrom, reported, this.api, reporter, 1);
		}
		assertThat(report(reporters.get(0), "SPAM", 1).status()).isEqualTo(201);
		assertThat(report(reporters.get(0), "SPAM", 1).status()).as("one reporter counts once").isEqualTo(200);
		assertThat(report(reporters.get(1), "SPAM", 2).status()).isEqualTo(201);
		assertThat(this.api.join(reported, 42, 2).status()).isEqualTo(202);
		assertThat(bans(Session.keyOf(reported))).isZero();

		assertThat(report(reporters.get(2), "HATE", 3).status()).isEqualTo(201);
		assertThat(bans(Session.keyOf(reported))).isOne();
		assertThat(this.redis.opsForZSet().size(RedisKeys.queue(42, 2))).as("out of its queue").isZero();
		assertThat(this.api.status(reported).field("status")).isEqualTo("idle");
		assertProblem(this.api.join(reported, 42, 2), 403, "banned");
		assertThat(this.jdbc
			.sql("SELECT COUNT(*) FROM room_outbox WHERE event_type = 'SESSION_BANNED' AND event_key = :key")
			.param("key", Session.keyOf(reported))
			.query(Long.class)
			.single()).isOne();
		// its ban ends when its session would: a day
		Instant expires = this.jdbc.sql("SELECT expires_at FROM bans WHERE subject = :key")
			.param("key", Session.keyOf(reported))
			.query(java.sql.Timestamp.class)
			.single()
			.toInstant();
		assertThat(Duration.between(this.clock.instant(), expires)).isBetween(Duration.ofHours(23),
				Duration.ofHours(25));
	}

	@Test
	void reportsOlderThanTheWindowDoNotCount() {
		String reported = this.api.session();
		List<String> reporters = List.of(this.api.session(), this.api.session(), this.api.session());
		for (String reporter : reporters) {
			RoomFeatures.shareARoom(this.api, reported, reporter, 2);
		}
		report(reporters.get(0), "SPAM", 1);
		report(reporters.get(1), "SPAM", 2);
		this.clock.advance(Duration.ofHours(1));
		report(reporters.get(2), "SPAM", 3);
		assertThat(bans(Session.keyOf(reported))).isZero();
		assertThat(this.api.join(reported, 2, 2).status()).isEqualTo(202);
	}

	/**
	 * Twenty sessions, each reported by three others at once while it keeps joining and
	 * leaving: each is banned once, with one event; no join begun after the reports were
	 * answered gets in, none of them is left in a queue, and no later room holds one.
	 */
	@Test
	void aBannedSessionNeverJoinsWhileReportsAndJoinsRace() throws Exception {
		int victims = 20;
		List<String> banned = new ArrayList<>();
		List<String> reporters = new ArrayList<>();
		// the victims join their rooms from a network of their own, which their bans ban
		Api victimsFrom = RoomFeatures.from(this.api, 50, 1);
		for (int i = 0; i < victims; i++) {
			String victim = this.api.session();
			banned.add(victim);
			for (int r = 0; r < 3; r++) {
				String reporter = this.api.session();
				RoomFeatures.shareARoom(victimsFrom, victim, this.api, reporter, 3);
				reporters.add(reporter);
			}
		}
		AtomicBoolean reporting = new AtomicBoolean(true);
		AtomicBoolean answered = new AtomicBoolean(false);
		CountDownLatch go = new CountDownLatch(1);
		Set<String> joinedAfterBan = ConcurrentHashMap.newKeySet();
		try (ExecutorService threads = Executors.newFixedThreadPool(victims + reporters.size())) {
			List<Future<?>> joining = new ArrayList<>();
			for (String victim : banned) {
				joining.add(threads.submit(() -> {
					go.await();
					while (reporting.get()) {
						boolean afterBans = answered.get();
						int status = this.api.join(victim, 42, 2).status();
						assertThat(status).isIn(200, 202, 403);
						if (afterBans && status != 403) {
							joinedAfterBan.add(victim + " " + status);
						}
						this.api.leave(victim);
					}
					return null;
				}));
			}
			List<Future<?>> reports = new ArrayList<>();
			for (int r = 0; r < reporters.size(); r++) {
				String reporter = reporters.get(r);
				// each victim's three reporters from three networks
				int network = 1 + r % 3;
				reports.add(threads.submit(() -> {
					go.await();
					assertThat(report(reporter, "SPAM", network).status()).isEqualTo(201);
					return null;
				}));
			}
			go.countDown();
			for (Future<?> each : reports) {
				each.get();
			}
			answered.set(true);
			// a while of joins that all must be refused
			for (int round = 0; round < 3; round++) {
				for (String victim : banned) {
					assertThat(this.api.join(victim, 42, 2).status()).isEqualTo(403);
				}
			}
			reporting.set(false);
			for (Future<?> each : joining) {
				each.get();
			}
		}
		assertThat(joinedAfterBan).isEmpty();
		long afterBans = RoomFeatures.lastConversationId(this.jdbc);
		Set<String> bannedKeys = new HashSet<>();
		for (String victim : banned) {
			bannedKeys.add(Session.keyOf(victim));
			assertThat(this.redis.opsForHash().hasKey(RedisKeys.claim(victim), "join")).as("waiting").isFalse();
			assertThat(bans(Session.keyOf(victim))).isOne();
			assertThat(this.jdbc
				.sql("SELECT COUNT(*) FROM room_outbox WHERE event_type = 'SESSION_BANNED' AND event_key = :key")
				.param("key", Session.keyOf(victim))
				.query(Long.class)
				.single()).isOne();
		}
		assertThat(this.redis.opsForZSet().range(RedisKeys.queue(42, 2), 0, -1))
			.noneMatch((member) -> banned.contains(member.substring(0, member.lastIndexOf(':'))));
		// whoever waits now waits alone: a newcomer forms a room with them, never with a
		// banned one
		for (int i = 0; i < 2; i++) {
			this.api.join(this.api.session(), 42, 2);
		}
		assertThat(RoomFeatures.conversations(this.jdbc, afterBans))
			.noneMatch((room) -> room.stream().anyMatch(bannedKeys::contains));
	}

	@Test
	void theAdminApiWantsItsTokenComparedWhole() {
		for (String[] auth : List.of(new String[0], new String[] { "Authorization", "Bearer nope" },
				new String[] { "Authorization", "Bearer " + RoomFeatures.ADMIN_TOKEN + "x" },
				new String[] { "Authorization", "Bearer " + RoomFeatures.ADMIN_TOKEN.substring(1) },
				new String[] { "Authorization", "Basic " + RoomFeatures.ADMIN_TOKEN })) {
			for (String[] call : List.of(new String[] { "GET", "/api/admin/topics" },
					new String[] { "POST", "/api/admin/bans" }, new String[] { "DELETE", "/api/admin/bans/1" })) {
				Response refused = this.api.send(call[0], call[1], null, call[0].equals("POST") ? "{}" : null, auth);
				assertProblem(refused, 401, "unauthenticated");
				assertThat(refused.header("WWW-Authenticate").orElse(null)).isEqualTo("Bearer");
			}
		}
		assertThat(RoomFeatures.admin(this.api, "GET", "/api/admin/topics", null).status()).isEqualTo(200);
	}

	@Test
	void operatorsAddRenameAndRetireTopicsWhichJoinsSeeAtOnce() {
		Response added = RoomFeatures.admin(this.api, "POST", "/api/admin/topics",
				"{\"name\":\"Chess " + System.nanoTime() + "\"}");
		assertThat(added.status()).as(added.body()).isEqualTo(201);
		long id = added.json().get("id").asLong();
		assertThat(added.json().get("active").asBoolean()).isTrue();
		String name = added.field("name");
		String token = this.api.session();
		assertThat(this.api.join(token, id, 2).status()).as("joinable at once here").isEqualTo(202);
		this.api.leave(token);
		assertThat(this.api.send("GET", "/api/topics", null, null).body()).contains(name);

		assertProblem(RoomFeatures.admin(this.api, "POST", "/api/admin/topics", "{\"name\":\"" + name + "\"}"), 409,
				"topic-name-taken");
		for (String bad : List.of("{}", "{\"name\":\"\"}", "{\"name\":\"  Chess\"}", "{\"name\":\"Ch\\tess\"}",
				"{\"name\":\"" + "x".repeat(101) + "\"}", "{\"name\":7}")) {
			assertThat(RoomFeatures.admin(this.api, "POST", "/api/admin/topics", bad).status()).as(bad).isEqualTo(400);
		}

		Response renamed = RoomFeatures.admin(this.api, "PATCH", "/api/admin/topics/" + id,
				"{\"name\":\"" + name + " club\"}");
		assertThat(renamed.status()).isEqualTo(200);
		assertThat(renamed.field("name")).isEqualTo(name + " club");
		Response retired = RoomFeatures.admin(this.api, "PATCH", "/api/admin/topics/" + id, "{\"active\":false}");
		assertThat(retired.json().get("active").asBoolean()).isFalse();
		assertProblem(this.api.join(token, id, 2), 400, "topic-unavailable");
		assertThat(RoomFeatures.admin(this.api, "GET", "/api/admin/topics", null).body()).contains(name + " club");
		assertProblem(RoomFeatures.admin(this.api, "PATCH", "/api/admin/topics/999999", "{\"active\":true}"), 404,
				"no-such-topic");
		assertThat(RoomFeatures.admin(this.api, "PATCH", "/api/admin/topics/" + id, "{}").status()).isEqualTo(400);
		assertProblem(RoomFeatures.admin(this.api, "PATCH", "/api/admin/topics/1", "{\"name\":\"Films\"}"), 409,
				"topic-name-taken");
	}

	@Test
	void operatorsBanASessionWhichLeavesItsQueueAndLiftTheBan() {
		String token = this.api.session();
		assertThat(this.api.join(token, 1, 2).status()).isEqualTo(202);
		Response ban = RoomFeatures.admin(this.api, "POST", "/api/admin/bans",
				"{\"ban_type\":\"SESSION\",\"value\":\"" + Session.keyOf(token).toUpperCase() + "\",\"expires_at\":\""
						+ this.clock.instant().plus(Duration.ofHours(2)) + "\"}");
		assertThat(ban.status()).as(ban.body()).isEqualTo(201);
		long id = ban.json().get("id").asLong();
		assertThat(ban.field("value")).isEqualTo(Session.keyOf(token));
		assertThat(this.api.status(token).field("status")).isEqualTo("idle");
		assertThat(this.redis.opsForZSet().size(RedisKeys.queue(1, 2))).isZero();
		assertProblem(this.api.join(token, 1, 2), 403, "banned");
		assertProblem(
				RoomFeatures.admin(this.api, "POST", "/api/admin/bans",
						"{\"ban_type\":\"SESSION\",\"value\":\"" + Session.keyOf(token) + "\"}"),
				409, "already-banned");
		assertThat(this.jdbc
			.sql("SELECT COUNT(*) FROM room_outbox WHERE event_type = 'SESSION_BANNED' AND event_key = :key")
			.param("key", Session.keyOf(token))
			.query(Long.class)
			.single()).isOne();

		assertThat(RoomFeatures.admin(this.api, "DELETE", "/api/admin/bans/" + id, null).status()).isEqualTo(204);
		assertThat(this.api.join(token, 1, 2).status()).as("lifted here at once").isEqualTo(202);
		assertProblem(RoomFeatures.admin(this.api, "DELETE", "/api/admin/bans/" + id, null), 404, "no-such-ban");
	}

	@Test
	void anAddressBanBitesAndBadBansAre400() {
		String before = this.api.session();
		Response ban = RoomFeatures.admin(this.api, "POST", "/api/admin/bans",
				"{\"ban_type\":\"IP\",\"value\":\"127.0.0.1\"}");
		assertThat(ban.status()).isEqualTo(201);
		assertThat(ban.json().get("expires_at").isNull()).isTrue();
		assertProblem(this.api.join(before, 1, 2), 403, "banned");
		assertProblem(this.api.send("POST", "/api/sessions", null, null), 403, "banned");
		RoomFeatures.admin(this.api, "DELETE", "/api/admin/bans/" + ban.json().get("id").asLong(), null);
		assertThat(this.api.join(this.api.session(), 1, 2).status()).isEqualTo(202);

		for (String bad : List.of("{\"ban_type\":\"IP\",\"value\":\"example.org\"}",
				"{\"ban_type\":\"IP\",\"value\":\"300.1.1.1\"}", "{\"ban_type\":\"SESSION\",\"value\":\"abc\"}",
				"{\"ban_type\":\"IP\",\"value\":\"10.0.0.1\",\"expires_at\":\"2001-01-01T00:00:00Z\"}")) {
			assertProblem(RoomFeatures.admin(this.api, "POST", "/api/admin/bans", bad), 400, "bad-ban");
		}
		for (String bad : List.of("{\"ban_type\":\"USER\",\"value\":\"1\"}", "{\"value\":\"10.0.0.1\"}",
				"{\"ban_type\":\"IP\"}", "{\"ban_type\":\"IP\",\"value\":\"10.0.0.1\",\"expires_at\":\"soon\"}")) {
			assertThat(RoomFeatures.admin(this.api, "POST", "/api/admin/bans", bad).status()).as(bad).isEqualTo(400);
		}
		assertThat(this.jdbc.sql("SELECT COUNT(*) FROM bans").query(Long.class).single()).isZero();
	}

	@Test
	void bansAreListedNewestFirstPageByPage() {
		List<Long> made = new ArrayList<>();
		for (int i = 1; i <= 5; i++) {
			made.add(0,
					RoomFeatures
						.admin(this.api, "POST", "/api/admin/bans",
								"{\"ban_type\":\"IP\",\"value\":\"10.0.0." + i + "\",\"reason\":\"flood\"}")
						.json()
						.get("id")
						.asLong());
		}
		List<Long> listed = new ArrayList<>();
		String cursor = null;
		do {
			Response page = RoomFeatures.admin(this.api, "GET",
					"/api/admin/bans?limit=2" + ((cursor != null) ? "&cursor=" + cursor : ""), null);
			assertThat(page.status()).isEqualTo(200);
			page.json().get("bans").forEach((ban) -> listed.add(ban.get("id").asLong()));
			JsonNode next = page.json().get("next_cursor");
			cursor = (next == null || next.isNull()) ? null : next.asString();
		}
		while (cursor != null);
		assertThat(listed).isEqualTo(made);
		assertProblem(RoomFeatures.admin(this.api, "GET", "/api/admin/bans?cursor=abc", null), 400, "bad-cursor");
		assertThat(RoomFeatures.admin(this.api, "GET", "/api/admin/bans?limit=0", null).status()).isEqualTo(400);
	}

	private Response report(String token, String reason) {
		return report(token, reason, 0);
	}

	/** A report sent from the network {@code 127.0.<network>.0/24}. */
	private Response report(String token, String reason, int network) {
		return RoomFeatures.report(RoomFeatures.from(this.api, network, 1), token, reason);
	}

	private long bans(String sessionKey) {
		return RoomFeatures.sessionBans(this.jdbc, sessionKey);
	}

	private static void assertProblem(Response response, int status, String type) {
		RoomFeatures.assertProblem(response, status, type);
	}

}
