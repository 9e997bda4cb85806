package io.kindling.matching;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import io.kindling.infra.http.Request;
import io.kindling.infra.http.Response;
import io.kindling.infra.test.MutableClock;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.fuzz.RawHttp;
import io.kindling.matching.queue.ClaimStore;
import io.kindling.matching.queue.ClaimWaitingScript;
import io.kindling.matching.queue.FormRoomScript;
import io.kindling.matching.queue.MatchQueue;
import io.kindling.matching.queue.PoppedRoom;
import io.kindling.matching.queue.QueueEntry;
import io.kindling.matching.queue.RedisKeys;
import io.kindling.matching.queue.RestoreRoomScript;
import io.kindling.matching.queue.SwapClaimScript;
import io.kindling.matching.queue.TokenState;
import io.kindling.matching.ratelimit.RateLimiter;
import io.kindling.matching.room.RoomClaims;
import io.kindling.matching.session.Session;
import io.kindling.support.web.WebEdgeProperties;
import io.micrometer.core.instrument.MeterRegistry;
import io.kindling.support.web.Refused;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

/**
 * The contract of {@code /api/sessions}, {@code /api/matching} and {@code /api/topics}
 * against real Redis and MariaDB, with the time rules on a test clock.
 */
@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "kindling_matching")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "kindling.matching.room-pending-ttl=2s")
@Import(TestClockConfiguration.class)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class MatchingIT {

	@LocalServerPort
	int port;

	@Autowired
	MutableClock clock;

	@Autowired
	WebEdgeProperties edge;

	@Autowired
	StringRedisTemplate redis;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	FormRoomScript formRoom;

	@Autowired
	RestoreRoomScript restoreRoom;

	@Autowired
	RoomClaims claims;

	@Autowired
	ClaimWaitingScript claimWaiting;

	@Autowired
	SwapClaimScript swapClaims;

	@Autowired
	ClaimStore store;

	@Autowired
	DataSource dataSource;

	@Autowired
	MeterRegistry meters;

	@Autowired
	RateLimiter rateLimiter;

	Api api;

	@BeforeEach
	void freshRedis() {
		this.redis.execute((org.springframework.data.redis.core.RedisCallback<Object>) (connection) -> {
			connection.serverCommands().flushDb();
			return null;
		});
		this.api = new Api(this.port);
	}

	@Test
	void bootsAndReportsHealthy() {
		Response health = this.api.send("GET", "/actuator/health", null, null);
		assertThat(health.body()).contains("\"status\":\"UP\"");
	}

	@Test
	void aSessionIsAnUnguessableTokenWithAnExpiry() {
		Response response = this.api.send("POST", "/api/sessions", null, null);
		assertThat(response.status()).isEqualTo(201);
		String token = response.field("token");
		assertThat(token).matches("[A-Za-z0-9_-]{43}");
		assertThat(Instant.parse(response.field("expires_at")))
			.isEqualTo(this.clock.instant().plus(Duration.ofHours(24)));
		assertThat(this.redis.getExpire("matching:session:" + token)).isBetween(86_000L, 86_400L);
		assertThat(this.api.session()).isNotEqualTo(token);
	}

	@Test
	void topicsListsTheActiveOnes() {
		JsonNode topics = this.api.send("GET", "/api/topics", null, null).json().get("topics");
		assertThat(topics.findValuesAsString("name")).contains("Books", "Late-night thoughts")
			.doesNotContain("Retired topic");
		assertThat(topics.get(0).get("id").asLong()).isEqualTo(1);
	}

	@Test
	void everyMatchingCallWithoutAValidSessionIs401() {
		String fake = "A".repeat(43);
		for (String method : List.of("GET", "POST", "DELETE")) {
			for (String[] auth : List.of(new String[0], new String[] { "Authorization", "Basic abc" },
					new String[] { "Authorization", "Bearer " + fake },
					new String[] { "Authorization", "Bearer not a token" })) {
				Response response = this.api.send(method, "/api/matching", null,
						method.equals("POST") ? "{\"topic_id\":1,\"size\":2}" : null, auth);
				assertThat(response.status()).as(method + " " + List.of(auth)).isEqualTo(401);
				assertThat(response.body()).as(method + " " + List.of(auth)).contains("\"status\":401");
				assertProblem(response, 401);
				assertThat(response.header("WWW-Authenticate")).hasValue("Bearer");
			}
		}
		assertThat(this.api.send("GET", "/api/matching/events", null, null).status()).isEqualTo(401);
		assertThat(this.redis.keys("matching:queue:*")).isEmpty();
	}

	@Test
	void twoPeopleInASizeTwoQueueAreMatchedAndTheConversationIsWrittenWithItsEvent() {
		String first = this.api.session();
		String second = this.api.session();
		Instant joinedAt = this.clock.instant();

		Response waiting = this.api.join(first, 42, 2);
		assertThat(waiting.status()).isEqualTo(202);
		assertThat(waiting.json().properties().stream().map(Map.Entry::getKey).toList())
			.containsExactlyInAnyOrder("status", "topic_id", "size", "waiting_since", "estimated_wait_ms");
		assertThat(waiting.field("status")).isEqualTo("waiting");
		assertThat(waiting.json().get("topic_id").asLong()).isEqualTo(42);
		assertThat(waiting.json().get("size").asInt()).isEqualTo(2);
		assertThat(Instant.parse(waiting.field("waiting_since"))).isEqualTo(joinedAt);
		// the same waiting; its estimate may follow a sweep's new queue stats meanwhile
		assertThat(withoutEstimate(this.api.status(first))).isEqualTo(withoutEstimate(waiting));

		// a time finer than the room keys hold: the join, the polls and the stored
		// conversation all say the same millisecond
		this.clock.advance(Duration.ofSeconds(3).plusNanos(456_789));
		Response matched = this.api.join(second, 42, 2);
		assertThat(matched.status()).isEqualTo(200);
		assertMatchedBody(matched.json(), 42, 2);
		Instant matchedAt = Instant.parse(matched.field("matched_at"));
		assertThat(matchedAt).isEqualTo(this.clock.instant().truncatedTo(ChronoUnit.MILLIS));
		assertThat(this.api.status(first).body()).isEqualTo(matched.body());
		assertThat(this.api.status(second).body()).isEqualTo(matched.body());

		long conversationId = matched.json().get("conversation_id").asLong();
		Map<String, Object> conversation = this.jdbc
			.sql("SELECT room_id, topic_id, size, room_type, fallback, formed_at FROM conversations WHERE id = :id")
			.param("id", conversationId)
			.query()
			.singleRow();
		assertThat(conversation.get("room_id")).isEqualTo(matched.field("room_id"));
		assertThat(((Number) conversation.get("room_type")).intValue()).isEqualTo(2);
		assertThat(((Timestamp) conversation.get("formed_at")).toInstant()).isEqualTo(matchedAt);
		assertThat(participants(conversationId)).containsExactlyInAnyOrder(Session.keyOf(first), Session.keyOf(second));

		String payload = this.jdbc
			.sql("SELECT payload FROM room_outbox WHERE event_type = 'ROOM_FORMED' AND event_key = :roomId")
			.param("roomId", matched.field("room_id"))
			.query(String.class)
			.single();
		JsonNode event = Api.JSON.readTree(payload);
		assertThat(event.properties().stream().map(Map.Entry::getKey).toList()).containsExactlyInAnyOrder("event_id",
				"event_type", "event_key", "room_id", "conversation_id", "topic_id", "room_type", "formed_at",
				"occurred_at");
		assertThat(event.get("conversation_id").asLong()).isEqualTo(conversationId);
		assertThat(event.get("room_type").asInt()).isEqualTo(2);
		assertThat(payload).doesNotContain(first).doesNotContain(second);
		assertThat(this.redis.getExpire(RedisKeys.claim(first))).isBetween(500L, 600L);
	}

	@Test
	void aThreePersonQueueFormsARoomOfThree() {
		String a = this.api.session();
		String b = this.api.session();
		String c = this.api.session();
		assertThat(this.api.join(a, 1, 3).status()).isEqualTo(202);
		assertThat(this.api.join(b, 1, 3).status()).isEqualTo(202);
		Response matched = this.api.join(c, 1, 3);
		assertThat(matched.status()).isEqualTo(200);
		assertMatchedBody(matched.json(), 1, 3);
		assertThat(participants(matched.json().get("conversation_id").asLong())).hasSize(3);
	}

	@Test
	void aThreePersonQueueFallsBackToTwoAfterSixtySeconds() {
		String a = this.api.session();
		String b = this.api.session();
		this.api.join(a, 2, 3);
		this.clock.advance(Duration.ofSeconds(30));
		this.api.join(b, 2, 3);
		this.clock.advance(Duration.ofSeconds(29));
		assertThat(this.api.status(b).field("status")).isEqualTo("waiting");
		assertThat(this.api.status(a).field("status")).isEqualTo("waiting");

		this.clock.advance(Duration.ofSeconds(1));
		Response matched = this.api.status(b);
		assertMatchedBody(matched.json(), 2, 2);
		assertThat(this.api.status(a).body()).isEqualTo(matched.body());
		assertThat(this.jdbc.sql("SELECT fallback FROM conversations WHERE id = :id")
			.param("id", matched.json().get("conversation_id").asLong())
			.query(Boolean.class)
			.single()).isTrue();
	}

	@Test
	void theSweeperFormsTheFallbackRoomWithNobodyPolling() {
		String a = this.api.session();
		String b = this.api.session();
		this.api.join(a, 3, 3);
		this.api.join(b, 3, 3);
		this.clock.advance(Duration.ofSeconds(60));
		await().atMost(Duration.ofSeconds(5))
			.until(() -> this.redis.opsForHash().get(RedisKeys.claim(a), "conversation_id") != null);
		assertThat(isWaiting(b)).isFalse();
		assertMatchedBody(this.api.status(a).json(), 3, 2);
	}

	@Test
	void someoneWaitingFiveMinutesIsDroppedByTheSweeperAndCounted() {
		String a = this.api.session();
		this.api.join(a, 4, 3);
		this.clock.advance(Duration.ofMinutes(5).minusMillis(1));
		assertThat(this.api.status(a).field("status")).isEqualTo("waiting");
		this.clock.advance(Duration.ofMillis(1));
		await().atMost(Duration.ofSeconds(5)).until(() -> !this.redis.hasKey(RedisKeys.claim(a)));
		assertThat(this.redis.opsForZSet().size(RedisKeys.queue(4, 3))).isZero();
		// the same sweep drops the emptied queue from the index, right after the claim
		await().atMost(Duration.ofSeconds(5))
			.until(() -> this.redis.opsForZSet().score(RedisKeys.ACTIVE_QUEUES, RedisKeys.queue(4, 3)) == null);
		assertThat(this.api.status(a).body()).isEqualTo("{\"status\":\"idle\"}");
		assertThat(this.api.join(a, 4, 3).status()).isEqualTo(202);
		assertThat(this.api.send("GET", "/actuator/prometheus", this.edge.metricsToken(), null).body())
			.containsPattern("kindling_matching_timeouts_total\\{size=\"3\",topic=\"4\"\\} [1-9]");
	}

	@Test
	void theRoomSizeMustBeTwoOrThree() {
		String token = this.api.session();
		for (int size : new int[] { 0, 1, 4, -2 }) {
			Response response = this.api.join(token, 1, size);
			assertThat(response.status()).isEqualTo(400);
			assertProblem(response, 400);
			assertThat(response.field("detail")).contains("size must be 2 or 3");
		}
		assertNothingChanged(token);
	}

	@Test
	void badBodiesAre4xxProblemsAndChangeNothing() {
		String token = this.api.session();
		Map<String, Integer> bodies = Map.of("{\"topic_id\": 1, \"size\": ", 400, "not json", 400, "[]", 400,
				"{\"size\": 2}", 400, "{\"topic_id\": 1}", 400, "{\"topic_id\": \"one\", \"size\": 2}", 400,
				"{\"topic_id\": 1, \"size\": {\"n\": 2}}", 400, "{\"topic_id\": -1, \"size\": 2}", 400, "", 400,
				"{\"topic_id\": 1, \"size\": 2, \"pad\": \"" + "x".repeat(20_000) + "\"}", 413);
		bodies.forEach((body, status) -> {
			Response response = this.api.send("POST", "/api/matching", token, body);
			assertThat(response.status()).as(body.length() > 100 ? "huge body" : body).isEqualTo(status);
			assertProblem(response, status);
		});
		Response xml = this.api.send("POST", "/api/matching", token, "<join/>", "Content-Type", "application/xml");
		assertThat(xml.status()).isEqualTo(415);
		assertProblem(xml, 415);
		assertThat(this.api.send("PUT", "/api/matching", token, "{}").status()).isEqualTo(405);
		assertThat(this.api.send("GET", "/api/nothing-here", token, null).status()).isEqualTo(404);
		assertNothingChanged(token);
	}

	@Test
	void aChunkedHugeBodyIs413Too() throws Exception {
		String token = this.api.session();
		byte[] huge = ("{\"topic_id\": 1, \"size\": 2, \"pad\": \"" + "x".repeat(40_000) + "\"}").getBytes();
		Response response = this.api.http()
			.send(Request.of("POST", "/api/matching")
				.bearer(token)
				.header("Content-Type", "application/json")
				.body(huge)
				.inChunks());
		assertThat(response.status()).isEqualTo(413);
		assertNothingChanged(token);
	}

	@Test
	void joinsPastThePerAddressLimitAre429WithRetryAfter() {
		String token = this.api.session();
		for (int i = 0; i < 20; i++) {
			assertThat(this.api.join(token, 1, 3).status()).isEqualTo(202);
			assertThat(this.api.leave(token).status()).isEqualTo(204);
		}
		Response limited = this.api.join(token, 1, 3);
		assertThat(limited.status()).isEqualTo(429);
		assertProblem(limited, 429);
		assertThat(Long.parseLong(limited.header("Retry-After").orElseThrow())).isBetween(1L, 60L);
		assertNothingChanged(token);
		this.clock.advance(Duration.ofSeconds(Long.parseLong(limited.header("Retry-After").orElseThrow())));
		assertThat(this.api.join(token, 1, 3).status()).isEqualTo(202);
	}

	@Test
	void anIpv4AddressIsLimitedAloneAndAnIpv6AddressByItsSlash64() {
		for (int i = 1; i <= 30; i++) {
			this.rateLimiter.countSession("2001:db8:1:2::" + Integer.toHexString(i));
			this.rateLimiter.countSession("198.51.100." + i);
		}
		// any other address of the /64 is over the limit; another /64, or another IPv4
		// address of the /24, is not
		assertThatExceptionOfType(Refused.class)
			.isThrownBy(() -> this.rateLimiter.countSession("2001:db8:1:2:ffff:ffff:ffff:ffff"))
			.satisfies((refused) -> assertThat(refused.refusal().slug()).isEqualTo("rate-limited"));
		this.rateLimiter.countSession("2001:db8:1:3::1");
		this.rateLimiter.countSession("198.51.100.31");
	}

	@Test
	void sessionsPastThePerAddressLimitAre429WithRetryAfter() {
		for (int i = 0; i < 30; i++) {
			this.api.session();
		}
		Response limited = this.api.send("POST", "/api/sessions", null, null);
		assertThat(limited.status()).isEqualTo(429);
		assertProblem(limited, 429);
		assertThat(limited.header("Retry-After").orElseThrow()).isNotNull();
	}

	@Test
	void aBannedSessionOrAddressIs403() {
		String token = this.api.session();
		this.jdbc.sql("INSERT INTO bans (ban_type, subject, reason) VALUES ('SESSION', :key, 'test')")
			.param("key", Session.keyOf(token))
			.update();
		// the active bans are read at most every ban-cache-ttl (5 s)
		this.clock.advance(Duration.ofSeconds(6));
		Response banned = this.api.join(token, 1, 2);
		assertThat(banned.status()).isEqualTo(403);
		assertProblem(banned, 403);
		assertNothingChanged(token);

		String other = this.api.session();
		this.jdbc.sql("INSERT INTO bans (ban_type, subject, expires_at) VALUES ('IP', '127.0.0.1', :until)")
			.param("until", java.sql.Timestamp.from(this.clock.instant().plusSeconds(60)))
			.update();
		this.clock.advance(Duration.ofSeconds(6));
		try {
			assertThat(this.api.join(other, 1, 2).status()).isEqualTo(403);
			this.clock.advance(Duration.ofSeconds(61));
			assertThat(this.api.join(other, 1, 2).status()).isEqualTo(202);
		}
		finally {
			this.jdbc.sql("DELETE FROM bans WHERE ban_type = 'IP'").update();
		}
	}

	@Test
	void anUnknownOrInactiveTopicIs400() {
		String token = this.api.session();
		for (long topic : new long[] { 99, 12345 }) {
			Response response = this.api.join(token, topic, 2);
			assertThat(response.status()).isEqualTo(400);
			assertProblem(response, 400);
			assertThat(response.field("detail")).contains("topic " + topic);
		}
		assertNothingChanged(token);
	}

	@Test
	void aSessionStopsWorkingAtItsExpiryEvenWhileRemembered() {
		String token = this.api.session();
		assertThat(this.api.status(token).status()).isEqualTo(200);
		this.clock.advance(Duration.ofHours(24).plusSeconds(1));
		Response expired = this.api.status(token);
		assertThat(expired.status()).isEqualTo(401);
		assertProblem(expired, 401);
	}

	@Test
	void aTopicAddedOrRetiredCountsOnceTheTopicCacheExpires() {
		String token = this.api.session();
		this.jdbc.sql("INSERT INTO topics (id, name, active) VALUES (777, 'Cache test', TRUE)").update();
		try {
			this.clock.advance(Duration.ofSeconds(6));
			assertThat(this.api.join(token, 777, 2).status()).isEqualTo(202);
			assertThat(this.api.leave(token).status()).isEqualTo(204);
			this.jdbc.sql("UPDATE topics SET active = FALSE WHERE id = 777").update();
			this.clock.advance(Duration.ofSeconds(6));
			Response retired = this.api.join(token, 777, 2);
			assertThat(retired.status()).isEqualTo(400);
			assertThat(retired.field("detail")).contains("topic 777");
			assertNothingChanged(token);
		}
		finally {
			this.jdbc.sql("DELETE FROM topics WHERE id = 777").update();
		}
	}

	@Test
	void joiningWhileWaitingOrInARoomIs409() {
		String a = this.api.session();
		String b = this.api.session();
		Response waiting = this.api.join(a, 1, 3);
		Response again = this.api.join(a, 2, 2);
		assertThat(again.status()).isEqualTo(409);
		assertProblem(again, 409);
		assertThat(this.api.status(a).body()).isEqualTo(waiting.body());
		assertThat(this.redis.opsForZSet().size(RedisKeys.queue(2, 2))).isZero();

		this.api.leave(a);
		this.api.join(a, 1, 2);
		Response matched = this.api.join(b, 1, 2);
		assertThat(matched.status()).isEqualTo(200);
		assertThat(this.api.join(a, 1, 2).status()).isEqualTo(409);
		assertThat(this.api.join(b, 3, 3).status()).isEqualTo(409);
		assertThat(this.api.status(a).body()).isEqualTo(matched.body());
	}

	@Test
	void deleteLeavesTheQueueOrTheRoom() {
		String a = this.api.session();
		String b = this.api.session();
		assertThat(this.api.leave(a).status()).isEqualTo(204);
		this.api.join(a, 1, 2);
		assertThat(this.api.leave(a).status()).isEqualTo(204);
		assertThat(this.api.status(a).body()).isEqualTo("{\"status\":\"idle\"}");
		assertThat(this.redis.opsForZSet().size(RedisKeys.queue(1, 2))).isZero();

		this.api.join(a, 1, 2);
		this.api.join(b, 1, 2);
		assertThat(this.api.leave(b).status()).isEqualTo(204);
		assertThat(this.api.status(b).body()).isEqualTo("{\"status\":\"idle\"}");
		assertThat(this.api.status(a).field("status")).isEqualTo("matched");
		assertThat(this.api.join(b, 1, 2).status()).isEqualTo(202);
	}

	@Test
	void aFailedConversationWritePutsEveryoneBackWhereTheyWere() {
		String a = this.api.session();
		String b = this.api.session();
		Response aWaiting = this.api.join(a, 4, 2);
		this.clock.advance(Duration.ofSeconds(5));
		long conversationsBefore = countConversations();
		// a real failure of the real database: the participants' table is gone for a
		// while
		this.jdbc.sql("RENAME TABLE conversation_participants TO conversation_participants_away").update();
		try {
			Response bJoined = this.api.join(b, 4, 2);
			assertThat(bJoined.status()).isEqualTo(202);
			assertThat(bJoined.field("status")).isEqualTo("waiting");
			// the same waiting, though its estimated wait shrank with the clock
			assertThat(withoutEstimate(this.api.status(a))).isEqualTo(withoutEstimate(aWaiting));
			assertThat(this.redis.opsForHash().hasKey(RedisKeys.claim(a), "room_id")).isFalse();
			assertThat(this.redis.opsForHash().hasKey(RedisKeys.claim(b), "room_id")).isFalse();
			assertThat(entryScore(RedisKeys.queue(4, 2), a))
				.isEqualTo((double) Instant.parse(aWaiting.field("waiting_since")).toEpochMilli());
			assertThat(this.redis.opsForZSet().size(RedisKeys.queue(4, 2))).isEqualTo(2);
			assertThat(countConversations()).isEqualTo(conversationsBefore);
		}
		finally {
			this.jdbc.sql("RENAME TABLE conversation_participants_away TO conversation_participants").update();
		}
		// a sweep may be writing the room right now, which answers waiting until it is
		// written
		await().atMost(Duration.ofSeconds(5)).until(() -> this.api.status(a).field("status").equals("matched"));
		Response matched = this.api.status(a);
		assertMatchedBody(matched.json(), 4, 2);
		assertThat(this.api.status(b).body()).isEqualTo(matched.body());
		assertThat(countConversations()).isEqualTo(conversationsBefore + 1);
	}

	@Test
	void aJoinQueuesAndTriesInOneScriptThatFormsTheRoomOfTheOldest() {
		MatchQueue queue = new MatchQueue(1, 2);
		String a = this.api.session();
		String b = this.api.session();
		String c = this.api.session();
		Instant now = this.clock.instant();
		assertThat(scriptJoin(a, queue, now).room()).isEmpty();
		FormRoomScript.Result popped = scriptJoin(b, queue, now);
		assertThat(popped.room())
			.hasValueSatisfying((room) -> assertThat(room.tokens()).containsExactlyInAnyOrder(a, b));
		// the conversation could not be written: both go back to their places
		PoppedRoom room = popped.room().get();
		assertThat(this.restoreRoom.restore(room, Set.copyOf(room.participants()))).isEqualTo(2);
		// whoever is waiting is refused, in this queue or another, and nothing changes
		assertAlreadyJoined(() -> this.claims.join(a, "127.0.0.1", queue));
		assertAlreadyJoined(() -> this.claims.join(a, "127.0.0.1", new MatchQueue(2, 3)));
		assertThat(this.redis.opsForZSet().size(RedisKeys.queue(2, 3))).isZero();

		// before anyone polls, c joins: its own call forms the room of the two who waited
		// longest and leaves c queued (no former can pop c between its enqueue and its
		// try)
		this.clock.advance(Duration.ofMillis(5));
		assertThat(this.claims.join(c, "127.0.0.1", queue)).isInstanceOf(TokenState.Waiting.class);
		assertThat(this.api.status(a).field("status")).isEqualTo("matched");
		assertThat(this.api.status(b).body()).isEqualTo(this.api.status(a).body());
		assertThat(this.api.status(c).field("status")).isEqualTo("waiting");
		// and whoever is in a room is refused
		assertAlreadyJoined(() -> this.claims.join(b, "127.0.0.1", queue));
		assertThat(tokensIn(RedisKeys.queue(1, 2))).containsExactly(c);
	}

	@Test
	void aRoomWhoseProcessDiedAfterMovingTheClaimsFreesItsPeopleWhenThePendingTtlPasses() {
		String a = this.api.session();
		String b = this.api.session();
		this.api.join(a, 2, 3);
		this.api.join(b, 2, 3);
		// the "crashed" process pops a fallback room straight from Redis, moves its
		// people's claims into it, and never writes its conversation
		PoppedRoom room = this.formRoom
			.form(new MatchQueue(2, 3), this.clock.instant().plusSeconds(60), Optional.empty())
			.room()
			.orElseThrow();
		for (QueueEntry entry : room.participants()) {
			assertThat(this.swapClaims.swap(new SwapClaimScript.Swap(entry.token(),
					new TokenState.Waiting(room.queue(), entry.since(), entry.joinId()), room.claim(entry),
					Duration.ofSeconds(2))))
				.isTrue();
		}

		// a room claim without a conversation id answers waiting
		assertThat(this.api.status(a).field("status")).isEqualTo("waiting");
		assertThat(this.api.status(b).field("status")).isEqualTo("waiting");
		assertThat(this.api.join(a, 1, 2).status()).isEqualTo(409);
		assertThat(this.redis.getExpire(RedisKeys.claim(a), java.util.concurrent.TimeUnit.MILLISECONDS)).isBetween(1L,
				2_000L);

		await().atMost(Duration.ofSeconds(5)).until(() -> !this.redis.hasKey(RedisKeys.claim(a)));
		assertThat(this.api.status(a).body()).isEqualTo("{\"status\":\"idle\"}");
		assertThat(this.api.status(b).body()).isEqualTo("{\"status\":\"idle\"}");
		assertThat(this.api.join(a, 2, 2).status()).isEqualTo(202);
		assertThat(this.api.join(b, 2, 2).status()).isEqualTo(200);
		assertThat(this.redis.opsForZSet().size(RedisKeys.queue(2, 3))).isZero();
	}

	@Test
	void aRoomWhoseProcessDiedRightAfterThePopFreesItsPeopleOnTheirNextPollOnceTheGraceIsOver() {
		String a = this.api.session();
		String b = this.api.session();
		this.api.join(a, 2, 3);
		this.api.join(b, 2, 3);
		// the "crashed" process pops a fallback room and dies before it moves any claim:
		// the claims say waiting, the queue has neither, only the popped record
		assertThat(
				this.formRoom.form(new MatchQueue(2, 3), this.clock.instant().plusSeconds(60), Optional.empty()).room())
			.isPresent();
		assertThat(this.redis.opsForZSet().size(RedisKeys.queue(2, 3))).isZero();
		assertThat(isWaiting(a)).isTrue();

		// while the popped record stands, the room may still be on its way: waiting
		this.clock.advance(Duration.ofSeconds(60));
		assertThat(this.api.status(a).field("status")).isEqualTo("waiting");
		assertThat(this.api.join(a, 1, 2).status()).isEqualTo(409);

		// once it is older than the pending TTL nobody is forming it: a poll (or a join)
		// sets the claim idle
		this.clock.advance(Duration.ofSeconds(3));
		assertThat(this.api.status(a).body()).isEqualTo("{\"status\":\"idle\"}");
		assertThat(this.api.join(b, 2, 2).status()).isEqualTo(202);
		assertThat(this.api.join(a, 2, 2).status()).isEqualTo(200);
		assertThat(this.api.send("GET", "/actuator/prometheus", this.edge.metricsToken(), null).body())
			.containsPattern("kindling_matching_claims_repaired_total\\{size=\"3\",topic=\"2\"\\} 2");
	}

	@Test
	void aJoinRetriedAfterItFailedBetweenItsClaimAndItsEntryIsTakenAtOnceForTheSameQueueOnly() {
		String a = this.api.session();
		String b = this.api.session();
		// the first try wrote a's claim and failed (a 503) before its queue entry went in
		TokenState.Waiting lost = new TokenState.Waiting(new MatchQueue(3, 2),
				this.clock.instant().truncatedTo(ChronoUnit.MILLIS), "lost-join");
		assertThat(this.swapClaims.swap(new SwapClaimScript.Swap(a, new TokenState.Idle(), lost, Duration.ZERO)))
			.isTrue();
		assertThat(this.redis.opsForZSet().size(RedisKeys.queue(3, 2))).isZero();

		// another queue within the grace: that join may still be on its way
		assertThat(this.api.join(a, 1, 2).status()).isEqualTo(409);
		assertThat(this.store.read(a)).isEqualTo(lost);
		// the same queue again is the retry: it waits there now, in the queue this time
		Response retried = this.api.join(a, 3, 2);
		assertThat(retried.status()).as(retried.body()).isEqualTo(202);
		assertThat(retried.field("status")).isEqualTo("waiting");
		assertThat(this.redis.opsForZSet().size(RedisKeys.queue(3, 2))).isOne();
		// and a join while its entry stands is refused as ever
		assertThat(this.api.join(a, 3, 2).status()).isEqualTo(409);
		Response matched = this.api.join(b, 3, 2);
		assertThat(matched.status()).isEqualTo(200);
		assertThat(this.api.status(a).body()).isEqualTo(matched.body());
	}

	@Test
	void aRoomClaimLeftBeingWrittenIsSettledFromMySqlByAPollOnceTheGraceIsOver() {
		String a = this.api.session();
		String b = this.api.session();
		this.api.join(a, 1, 2);
		Response matched = this.api.join(b, 1, 2);
		assertThat(matched.status()).isEqualTo(200);
		// a failover lost the confirmation: the promoted replica holds a's room claim as
		// being written, long after the room was
		TokenState.Forming beingWritten = new TokenState.Forming(new MatchQueue(1, 2),
				Instant.parse(matched.field("matched_at")), matched.field("room_id"), 2,
				Instant.parse(matched.field("matched_at")));
		assertThat(this.swapClaims.swap(new SwapClaimScript.Swap(a, beingWritten, beingWritten, Duration.ofMinutes(1))))
			.isTrue();
		double recoveredBefore = recovered();
		assertThat(this.api.status(a).field("status")).as("its former may still be writing it").isEqualTo("waiting");
		this.clock.advance(RoomClaims.ORPHAN_GRACE);
		assertThat(this.api.status(a).body()).isEqualTo(matched.body());
		assertThat(this.api.status(b).body()).isEqualTo(matched.body());
		assertThat(recovered()).isEqualTo(recoveredBefore + 1);

		// a room claim being written whose room MySQL never wrote frees its token once
		// the
		// pending TTL is over by the service's clock
		String c = this.api.session();
		TokenState.Forming neverWritten = new TokenState.Forming(new MatchQueue(1, 2), this.clock.instant(),
				UUID.randomUUID().toString(), 2, this.clock.instant());
		assertThat(this.swapClaims
			.swap(new SwapClaimScript.Swap(c, new TokenState.Idle(), neverWritten, Duration.ofMinutes(1)))).isTrue();
		assertThat(this.api.status(c).field("status")).isEqualTo("waiting");
		this.clock.advance(RoomClaims.ORPHAN_GRACE);
		assertThat(this.api.status(c).body()).isEqualTo("{\"status\":\"idle\"}");
		assertThat(this.api.join(c, 1, 2).status()).isEqualTo(202);
	}

	@Test
	void aRoomWrittenAfterAFailoverBroughtBackItsPeoplesWaitsTellsThemTheRoom() throws Exception {
		String a = this.api.session();
		String b = this.api.session();
		MatchQueue queue = new MatchQueue(2, 2);
		this.api.join(a, 2, 2);
		TokenState.Waiting aWaits = (TokenState.Waiting) this.store.read(a);
		long before = countConversations();
		CompletableFuture<Response> bJoins;
		// MySQL holds the room's write (a's seat is being inserted by another
		// transaction) while Redis fails over under it
		try (Connection holder = this.dataSource.getConnection()) {
			holder.setAutoCommit(false);
			try (PreparedStatement insert = holder.prepareStatement(
					"INSERT INTO seats (participant_key, room_id, live_until) VALUES (?, 'held', NOW())")) {
				insert.setString(1, Session.keyOf(a));
				insert.executeUpdate();
			}
			bJoins = CompletableFuture.supplyAsync(() -> this.api.join(b, 2, 2));
			await().atMost(Duration.ofSeconds(10))
				.until(() -> this.redis.opsForHash().hasKey(RedisKeys.claim(a), "room_id"));
			// the promoted replica never heard of the pop nor of b: a waits again, its
			// entry back in the queue, and b holds no claim
			this.redis.delete(RedisKeys.claim(a));
			this.redis.opsForHash().putAll(RedisKeys.claim(a), aWaits.fields());
			this.redis.opsForZSet().add(queue.key(), aWaits.entry(a).member(), aWaits.since().toEpochMilli());
			this.redis.delete(RedisKeys.claim(b));
			holder.rollback();
		}
		assertThat(bJoins.get(30, TimeUnit.SECONDS).status()).isIn(200, 202);
		assertThat(countConversations()).isEqualTo(before + 1);

		// the room stands in MySQL: a is told it at once, and its stale entry is gone
		Response aStatus = this.api.status(a);
		assertThat(aStatus.field("status")).isEqualTo("matched");
		assertThat(tokensIn(queue.key())).isEmpty();
		// b's claim was lost altogether: its poll finds the room in MySQL
		assertThat(this.api.status(b).body()).isEqualTo(aStatus.body());
		assertThat(liveSeat(a)).isEqualTo(aStatus.field("room_id"));
		assertThat(liveSeat(b)).isEqualTo(aStatus.field("room_id"));
	}

	@Test
	void anEntryWhoseClaimIsGoneIsDroppedFromTheRoomAndTheOthersKeepTheirPlaces() {
		String a = this.api.session();
		String b = this.api.session();
		String c = this.api.session();
		MatchQueue queue = new MatchQueue(3, 2);
		// a left, and its process died between deleting the claim and removing the entry
		assertThat(scriptJoin(a, queue, this.clock.instant()).room()).isEmpty();
		this.redis.delete(RedisKeys.claim(a));
		this.clock.advance(Duration.ofSeconds(1));
		Response bWaiting = this.api.join(b, 3, 2);
		assertThat(bWaiting.status()).as("a's stale entry cannot make a room with b").isEqualTo(202);
		assertThat(tokensIn(RedisKeys.queue(3, 2))).containsExactly(b);
		assertThat(this.api.status(b).body()).isEqualTo(bWaiting.body());
		assertThat(this.api.status(a).body()).isEqualTo("{\"status\":\"idle\"}");
		Response matched = this.api.join(c, 3, 2);
		assertThat(matched.status()).isEqualTo(200);
		assertThat(this.api.status(b).body()).isEqualTo(matched.body());
	}

	@Test
	void aLeaveReachesMySqlSoTheLeaverCanBeMatchedAgainWithinTheRoomTtl() {
		String a = this.api.session();
		String b = this.api.session();
		String c = this.api.session();
		this.api.join(a, 1, 2);
		String firstRoom = this.api.join(b, 1, 2).field("room_id");
		assertThat(liveSeat(a)).isEqualTo(firstRoom);
		assertThat(this.api.leave(a).status()).isEqualTo(204);
		assertThat(liveSeat(a)).isNull();
		assertThat(liveSeat(b)).isEqualTo(firstRoom);

		this.clock.advance(Duration.ofMinutes(1));
		this.api.join(a, 1, 2);
		Response again = this.api.join(c, 1, 2);
		assertThat(again.status()).isEqualTo(200);
		assertThat(again.field("room_id")).isNotEqualTo(firstRoom);
		assertThat(liveSeat(a)).isEqualTo(again.field("room_id"));
	}

	@Test
	void aLeaveFromTheQueueOrFromNothingAfterAFailoverLostTheRoomLeavesItInMySqlToo() {
		String a = this.api.session();
		String b = this.api.session();
		this.api.join(a, 3, 2);
		Response matched = this.api.join(b, 3, 2);
		assertThat(matched.status()).isEqualTo(200);
		// the promoted replica never heard of the room: a waits again in its queue, b's
		// claim is gone
		TokenState.Waiting waitsAgain = new TokenState.Waiting(new MatchQueue(3, 2),
				Instant.parse(matched.field("matched_at")), "lost-join");
		this.redis.delete(RedisKeys.claim(a));
		this.redis.opsForHash().putAll(RedisKeys.claim(a), waitsAgain.fields());
		this.redis.opsForZSet()
			.add(RedisKeys.queue(3, 2), waitsAgain.entry(a).member(), waitsAgain.since().toEpochMilli());
		this.redis.delete(RedisKeys.claim(b));
		assertThat(this.api.status(a).field("status")).isEqualTo("waiting");
		assertThat(liveSeat(a)).isEqualTo(matched.field("room_id"));

		assertThat(this.api.leave(a).status()).isEqualTo(204);
		assertThat(this.api.leave(b).status()).isEqualTo(204);
		assertThat(liveSeat(a)).isNull();
		assertThat(liveSeat(b)).isNull();
		assertThat(this.api.status(a).body()).isEqualTo("{\"status\":\"idle\"}");
		assertThat(this.api.status(b).body()).isEqualTo("{\"status\":\"idle\"}");
		assertThat(this.redis.opsForZSet().size(RedisKeys.queue(3, 2))).isZero();
	}

	@Test
	void roomMetricsAreOnPrometheus() {
		String formed = "kindling_matching_rooms_formed_total{fallback=\"false\",room_type=\"2\",size=\"2\",topic=\"42\"}";
		String waitCount = "kindling_matching_wait_seconds_count{size=\"2\",topic=\"42\"}";
		String waitSum = "kindling_matching_wait_seconds_sum{size=\"2\",topic=\"42\"}";
		String waiting = "kindling_matching_waiting{size=\"2\",topic=\"42\"}";
		// the counters live as long as the application: earlier tests' rooms are in them
		String before = prometheus();
		String a = this.api.session();
		String b = this.api.session();
		this.api.join(a, 42, 2);
		assertThat(sample(prometheus(), waiting)).as("a waits").isEqualTo(1.0);
		this.clock.advance(Duration.ofSeconds(2));
		this.api.join(b, 42, 2);
		String metrics = prometheus();
		assertThat(metrics).contains(formed)
			.contains("kindling_matching_wait_seconds_bucket{size=\"2\",topic=\"42\"")
			.contains(waiting);
		assertThat(sample(metrics, formed) - sample(before, formed)).as("rooms formed").isEqualTo(1.0);
		assertThat(sample(metrics, waitCount) - sample(before, waitCount)).as("waits recorded, one per person")
			.isEqualTo(2.0);
		// a waited 2 s on the test clock, b not at all
		assertThat(sample(metrics, waitSum) - sample(before, waitSum)).as("seconds waited")
			.isCloseTo(2.0, within(1e-9));
		assertThat(sample(metrics, waiting)).as("nobody left waiting").isEqualTo(0.0);
	}

	private String prometheus() {
		return this.api.send("GET", "/actuator/prometheus", this.edge.metricsToken(), null).body();
	}

	/** The value of one series in Prometheus' text format, 0 when it is not there yet. */
	private static double sample(String metrics, String series) {
		return metrics.lines()
			.filter((line) -> line.startsWith(series + " "))
			.mapToDouble((line) -> Double.parseDouble(line.substring(series.length() + 1).strip()))
			.findFirst()
			.orElse(0);
	}

	/**
	 * The three answers a new user's malformed requests found: a fraction truncated into
	 * a join, a 500 for multipart without a boundary, Tomcat's HTML page for a
	 * {@code %00}.
	 */
	@Test
	void aFractionMultipartWithoutBoundaryAndANulInThePathAreRefusedAndChangeNothing() throws Exception {
		String token = this.api.session();

		Response fraction = this.api.send("POST", "/api/matching", token, "{\"topic_id\": 1, \"size\": 2.5}");
		assertThat(fraction.status()).isEqualTo(400);
		assertProblem(fraction, 400);
		assertThat(fraction.field("type")).isEqualTo("https://kindling.io/problems/unreadable-request-body");
		Response text = this.api.send("POST", "/api/matching", token, "{\"topic_id\": 1, \"size\": \"2\"}");
		assertThat(text.status()).isEqualTo(400);
		assertThat(text.field("type")).isEqualTo("https://kindling.io/problems/unreadable-request-body");

		Response multipart = this.api.send("POST", "/api/matching", token, "{\"topic_id\": 1, \"size\": 2}",
				"Content-Type", "multipart/form-data");
		assertThat(multipart.status()).isEqualTo(415);
		assertProblem(multipart, 415);
		assertThat(multipart.field("type")).isEqualTo("https://kindling.io/problems/unsupported-media-type");

		// an HTTP client will not send this path: a raw socket does
		RawHttp.Response nul = RawHttp.exchange("127.0.0.1", this.port,
				("GET /api/matching/%00 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nAuthorization: Bearer "
						+ token + "\r\n\r\n")
					.getBytes(StandardCharsets.ISO_8859_1),
				10_000);
		assertThat(nul.status()).isEqualTo(400);
		assertThat(nul.header("content-type")).startsWith("application/problem+json");
		assertThat(nul.body()).contains("\"type\":\"https://kindling.io/problems/bad-request\"")
			.doesNotContain("<html");

		assertNothingChanged(token);
	}

	private static void assertAlreadyJoined(ThrowingCallable join) {
		assertThatExceptionOfType(Refused.class).isThrownBy(join)
			.satisfies((refused) -> assertThat(refused.refusal().slug()).isEqualTo("already-joined"));
	}

	private void assertNothingChanged(String token) {
		assertThat(this.api.status(token).body()).isEqualTo("{\"status\":\"idle\"}");
		assertThat(this.redis.keys("matching:queue:*")).isEmpty();
		assertThat(this.redis.keys("matching:claim:*")).isEmpty();
	}

	/** The queue half of a join, without writing any room it pops. */
	private FormRoomScript.Result scriptJoin(String token, MatchQueue queue, Instant now) {
		TokenState.Waiting waiting = new TokenState.Waiting(queue, now, UUID.randomUUID().toString());
		assertThat(this.claimWaiting.claim(token, waiting).claimed()).isTrue();
		return this.formRoom.join(queue, waiting.entry(token), now);
	}

	private boolean isWaiting(String token) {
		return this.redis.opsForHash().hasKey(RedisKeys.claim(token), "join");
	}

	private @Nullable Double entryScore(String queue, String token) {
		Object join = this.redis.opsForHash().get(RedisKeys.claim(token), "join");
		return this.redis.opsForZSet().score(queue, token + ":" + join);
	}

	private List<String> tokensIn(String queue) {
		return this.redis.opsForZSet()
			.range(queue, 0, -1)
			.stream()
			.map((member) -> member.substring(0, member.lastIndexOf(':')))
			.toList();
	}

	private @Nullable String liveSeat(String token) {
		return this.jdbc.sql("""
				SELECT room_id FROM seats
				WHERE participant_key = :key AND left_at IS NULL AND live_until > FROM_UNIXTIME(:now)
				""")
			.param("key", Session.keyOf(token))
			.param("now", this.clock.instant().getEpochSecond())
			.query(String.class)
			.optional()
			.orElse(null);
	}

	private static JsonNode withoutEstimate(Response waiting) {
		tools.jackson.databind.node.ObjectNode body = (tools.jackson.databind.node.ObjectNode) waiting.json();
		assertThat(body.has("estimated_wait_ms")).isTrue();
		body.remove("estimated_wait_ms");
		return body;
	}

	private static void assertProblem(Response response, int status) {
		assertThat(response.header("Content-Type").orElseThrow()).startsWith("application/problem+json");
		JsonNode problem = response.json();
		assertThat(problem.get("status").asInt()).isEqualTo(status);
		assertThat(problem.has("type")).isTrue();
		assertThat(problem.has("title")).isTrue();
		assertThat(problem.has("detail")).isTrue();
		assertThat(response.body()).doesNotContain("Exception").doesNotContain("\tat ");
	}

	private static void assertMatchedBody(JsonNode body, long topicId, int roomType) {
		assertThat(body.properties().stream().map(Map.Entry::getKey).toList()).containsExactlyInAnyOrder("status",
				"room_id", "conversation_id", "room_type", "topic_id", "matched_at");
		assertThat(body.get("status").asString()).isEqualTo("matched");
		assertThat(UUID.fromString(body.get("room_id").asString())).isNotNull();
		assertThat(body.get("conversation_id").asLong()).isPositive();
		assertThat(body.get("room_type").asInt()).isEqualTo(roomType);
		assertThat(body.get("topic_id").asLong()).isEqualTo(topicId);
		assertThat(Instant.parse(body.get("matched_at").asString())).isNotNull();
	}

	private Set<String> participants(long conversationId) {
		return Set
			.copyOf(this.jdbc.sql("SELECT participant_key FROM conversation_participants WHERE conversation_id = :id")
				.param("id", conversationId)
				.query(String.class)
				.list());
	}

	private double recovered() {
		return this.meters.find("kindling.matching.claims.recovered")
			.counters()
			.stream()
			.mapToDouble((c) -> c.count())
			.sum();
	}

	private long countConversations() {
		return this.jdbc.sql("SELECT COUNT(*) FROM conversations").query(Long.class).single();
	}

}
