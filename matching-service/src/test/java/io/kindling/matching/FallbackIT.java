package io.kindling.matching;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import io.kindling.infra.http.EventStream;
import io.kindling.infra.http.Request;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServerSentEvent;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.matching.queue.RedisKeys;
import io.kindling.matching.session.Session;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The opt-in fallback to anyone through the HTTP API on real Redis and MariaDB, two
 * instances on one moved clock: who opted in waits in the size's fallback queue too and
 * meets anyone else there once both have waited past their own fallback, whatever the
 * topic; who did not opt in never leaves their topics.
 */
@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "kindling_matching")
class FallbackIT {

	@RegisterExtension
	static final TwoInstances.PerClass twoInstances = new TwoInstances.PerClass();

	TwoInstances instances;

	@BeforeEach
	void instances() {
		this.instances = twoInstances.get();
	}

	@Test
	void twoWhoOptedInMeetAcrossTopicsOnlyOnceBothWaitedPastTheirOwnFallback() throws Exception {
		double formedBefore = this.instances.counter("kindling.matching.rooms.formed", "topic", "any", "size", "2");
		String a = this.instances.a.session();
		String b = this.instances.b.session();
		Response aWaits = join(this.instances.a, a, "\"topic_id\": 1, \"size\": 2, \"fallback_after_s\": 10");
		assertThat(aWaits.status()).as(aWaits.body()).isEqualTo(202);
		assertThat(this.instances.redis.opsForZSet().size(anyQueue(2))).isOne();
		EventStream stream = this.instances.b.http()
			.events(Request.get("/api/matching/events").bearer(a))
			.awaitFirstLine(":subscribed");
		this.instances.clock.advance(Duration.ofSeconds(5));
		waits(this.instances.b, b, "\"topic_ids\": [2, 3], \"size\": 2, \"fallback_after_s\": 60");

		// a is past its 10 s, b is not past its 60 s: neither is taken
		this.instances.clock.advance(Duration.ofSeconds(15));
		assertWaiting(a, b);
		this.instances.clock.advance(Duration.ofSeconds(44));
		assertWaiting(a, b);

		// b has waited 61 s now
		this.instances.clock.advance(Duration.ofSeconds(2));
		Response matched = matched(this.instances.b, b);

		assertThat(matched.json().get("fallback").asBoolean()).isTrue();
		assertThat(matched.json().get("topic_id").asLong()).as("the topic of who waited longest").isEqualTo(1);
		assertThat(matched(this.instances.a, a).body()).isEqualTo(matched.body());
		ServerSentEvent pushed = stream.nextEvent("matched");
		assertThat(Api.JSON.readTree(pushed.data())).isEqualTo(matched.json());
		stream.close();
		long conversationId = matched.json().get("conversation_id").asLong();
		assertThat(this.instances.jdbc
			.sql("SELECT CONCAT(topic_id, ' ', topic_fallback, ' ', fallback, ' ', room_type) FROM conversations "
					+ "WHERE id = :id")
			.param("id", conversationId)
			.query(String.class)
			.single()).as("topic, topic fallback, size fallback, room type").isEqualTo("1 1 0 2");
		for (String queue : List.of(anyQueue(2), RedisKeys.queue(1, 2), RedisKeys.queue(2, 2), RedisKeys.queue(3, 2))) {
			assertThat(this.instances.redis.opsForZSet().size(queue)).as(queue).isZero();
		}
		assertThat(this.instances.counter("kindling.matching.rooms.formed", "topic", "any", "size", "2"))
			.isEqualTo(formedBefore + 1);
	}

	@Test
	void whoDidNotOptInIsNeverMatchedOutsideTheirTopics() {
		String optedIn = this.instances.a.session();
		String stays = this.instances.b.session();
		String alsoOptedIn = this.instances.a.session();
		waits(this.instances.a, optedIn, "\"topic_id\": 1, \"size\": 2, \"fallback_after_s\": 10");
		assertThat(this.instances.b.join(stays, 2, 2).status()).isEqualTo(202);

		this.instances.clock.advance(Duration.ofSeconds(200));
		assertWaiting(optedIn, stays);
		assertThat(this.instances.redis.opsForZSet().size(anyQueue(2))).isOne();

		// someone else who opted in comes: the two who opted in meet, the other waits on
		waits(this.instances.b, alsoOptedIn, "\"topic_id\": 3, \"size\": 2, \"fallback_after_s\": 10");
		this.instances.clock.advance(Duration.ofSeconds(11));
		Response matched = matched(this.instances.a, alsoOptedIn);
		assertThat(matched.json().get("topic_id").asLong()).isEqualTo(1);
		assertThat(matched(this.instances.b, optedIn).body()).isEqualTo(matched.body());
		assertThat(this.instances.a.status(stays).field("status")).isEqualTo("waiting");
	}

	@Test
	void aRoomOfTheTopicAnswersAsBeforeAndTakesTheJoinOutOfTheFallbackQueue() {
		String a = this.instances.a.session();
		String b = this.instances.b.session();
		waits(this.instances.a, a, "\"topic_id\": 4, \"size\": 2, \"fallback_after_s\": 10");

		Response matched = this.instances.b.join(b, 4, 2);

		assertThat(matched.status()).as(matched.body()).isEqualTo(200);
		assertThat(matched.json().has("fallback")).isFalse();
		assertThat(this.instances.redis.opsForZSet().size(anyQueue(2))).isZero();
		assertThat(this.instances.jdbc.sql("SELECT topic_fallback FROM conversations WHERE id = :id")
			.param("id", matched.json().get("conversation_id").asLong())
			.query(Boolean.class)
			.single()).isFalse();
	}

	@Test
	void sizesNeverMixAndThreeWhoOptedInFillARoomOfThree() {
		String two = this.instances.a.session();
		waits(this.instances.a, two, "\"topic_id\": 1, \"size\": 2, \"fallback_after_s\": 10");
		List<String> threes = List.of(this.instances.a.session(), this.instances.b.session(),
				this.instances.a.session());
		for (int i = 0; i < threes.size(); i++) {
			// the first waits longest, and is eligible first
			this.instances.clock.advance(Duration.ofMillis(1));
			assertThat(join(this.instances.b, threes.get(i),
					"\"topic_id\": " + (i + 2) + ", \"size\": 3, \"fallback_after_s\": " + (10 + i))
				.status()).isEqualTo(202);
		}
		this.instances.clock.advance(Duration.ofSeconds(11));
		assertWaiting(two, threes.get(0), threes.get(1), threes.get(2));

		this.instances.clock.advance(Duration.ofSeconds(1));
		Response matched = matched(this.instances.a, threes.get(2));

		assertThat(matched.json().get("room_type").asInt()).isEqualTo(3);
		assertThat(matched.json().get("topic_id").asLong()).isEqualTo(2);
		assertThat(matched.json().get("fallback").asBoolean()).isTrue();
		assertThat(this.instances.a.status(two).field("status")).isEqualTo("waiting");
	}

	@Test
	void recentPartnersWhoOptedInAreKeptApartWhileSomeoneElseCanTakeOne() {
		String a = this.instances.a.session();
		String b = this.instances.b.session();
		String c = this.instances.a.session();
		RoomFeatures.shareARoom(this.instances.a, a, this.instances.b, b, 4);
		waits(this.instances.a, a, "\"topic_id\": 1, \"size\": 2, \"fallback_after_s\": 10");
		this.instances.clock.advance(Duration.ofMillis(10));
		waits(this.instances.b, b, "\"topic_id\": 2, \"size\": 2, \"fallback_after_s\": 10");
		this.instances.clock.advance(Duration.ofSeconds(11));
		assertWaiting(a, b);

		waits(this.instances.a, c, "\"topic_id\": 3, \"size\": 2, \"fallback_after_s\": 10");
		this.instances.clock.advance(Duration.ofSeconds(11));
		Response matched = matched(this.instances.b, c);

		assertThat(matched(this.instances.a, a).body()).as("the older of the two").isEqualTo(matched.body());
		assertThat(this.instances.a.status(b).field("status")).isEqualTo("waiting");
	}

	@Test
	void theSweeperFormsFallbackRoomsWithNobodyPollingAndTimesOutTheirEntries() {
		String a = this.instances.a.session();
		String b = this.instances.b.session();
		String late = this.instances.a.session();
		waits(this.instances.a, a, "\"topic_id\": 1, \"size\": 2, \"fallback_after_s\": 10");
		waits(this.instances.b, b, "\"topic_id\": 2, \"size\": 2, \"fallback_after_s\": 10");
		this.instances.clock.advance(Duration.ofSeconds(11));

		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.instances.redis.opsForZSet().size(anyQueue(2)) == 0
					&& this.instances.redis.opsForHash().hasKey(RedisKeys.claim(a), "conversation_id"));
		assertThat(matched(this.instances.a, b).json().get("fallback").asBoolean()).isTrue();

		waits(this.instances.a, late, "\"topic_id\": 3, \"size\": 2, \"fallback_after_s\": 300");
		this.instances.clock.advance(Duration.ofMinutes(5));
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.instances.redis.opsForZSet().size(anyQueue(2)) == 0
					&& !this.instances.redis.hasKey(RedisKeys.claim(late)));
		assertThat(this.instances.a.status(late).body()).isEqualTo("{\"status\":\"idle\"}");
	}

	@Test
	void aLeaveOrABanTakesTheJoinOutOfTheFallbackQueue() {
		String leaves = this.instances.a.session();
		String banned = this.instances.b.session();
		waits(this.instances.a, leaves, "\"topic_id\": 1, \"size\": 3, \"fallback_after_s\": 10");
		waits(this.instances.b, banned, "\"topic_id\": 2, \"size\": 3, \"fallback_after_s\": 10");
		assertThat(this.instances.redis.opsForZSet().size(anyQueue(3))).isEqualTo(2);

		assertThat(this.instances.b.leave(leaves).status()).isEqualTo(204);
		Response ban = RoomFeatures.admin(this.instances.a, "POST", "/api/admin/bans",
				"{\"ban_type\":\"SESSION\",\"value\":\"" + Session.keyOf(banned) + "\"}");
		assertThat(ban.status()).as(ban.body()).isEqualTo(201);

		await().atMost(Duration.ofSeconds(10)).until(() -> this.instances.redis.opsForZSet().size(anyQueue(3)) == 0);
		assertThat(this.instances.a.status(leaves).field("status")).isEqualTo("idle");
		assertThat(this.instances.redis.hasKey(RedisKeys.claim(banned))).isFalse();
	}

	@Test
	void queueStatsCountAnOptedInJoinInItsTopicsOnly() {
		String a = this.instances.a.session();
		waits(this.instances.a, a, "\"topic_id\": 3, \"size\": 3, \"fallback_after_s\": 30");

		await().atMost(Duration.ofSeconds(5)).until(() -> waitingIn(a, 3, 3) == 1);
		JsonNode queues = this.instances.a.send("GET", "/api/matching/queues", a, null).json().get("queues");
		Set<Long> topics = new java.util.HashSet<>();
		queues.forEach((queue) -> topics.add(queue.get("topic_id").asLong()));
		assertThat(topics).doesNotContain(0L).contains(3L);
	}

	@Test
	void aFallbackOutOfRangeOrOfTheWrongTypeIsRefusedAndChangesNothing() {
		String a = this.instances.a.session();
		for (String value : List.of("9", "301", "0", "-10")) {
			Response refused = join(this.instances.a, a,
					"\"topic_id\": 1, \"size\": 2, \"fallback_after_s\": " + value);
			RoomFeatures.assertProblem(refused, 400, "invalid-request");
			assertThat(refused.field("detail")).contains("10 to 300");
		}
		for (String value : List.of("\"30\"", "30.5", "true", "[30]", "{}")) {
			Response refused = join(this.instances.a, a,
					"\"topic_id\": 1, \"size\": 2, \"fallback_after_s\": " + value);
			RoomFeatures.assertProblem(refused, 400, "unreadable-request-body");
		}
		assertThat(this.instances.a.status(a).field("status")).isEqualTo("idle");
		assertThat(this.instances.redis.opsForZSet().size(anyQueue(2))).isZero();
		assertThat(this.instances.redis.opsForZSet().size(RedisKeys.queue(1, 2))).isZero();
	}

	/**
	 * The caller's answer once matched. Its room is due by the clock, but the sweeper of
	 * either instance may be writing it while the caller asks: that poll answers waiting
	 * (its room being written), so ask until it answers matched.
	 */
	private static Response matched(Api api, String token) {
		Response[] last = new Response[1];
		await().atMost(Duration.ofSeconds(10)).until(() -> {
			last[0] = api.status(token);
			return "matched".equals(last[0].field("status"));
		});
		return last[0];
	}

	private void assertWaiting(String... tokens) {
		for (String token : tokens) {
			Response status = this.instances.a.status(token);
			assertThat(status.field("status")).as(status.body()).isEqualTo("waiting");
		}
	}

	private int waitingIn(String token, long topicId, int size) {
		JsonNode queues = this.instances.a.send("GET", "/api/matching/queues", token, null).json().get("queues");
		for (JsonNode queue : queues) {
			if (queue.get("topic_id").asLong() == topicId && queue.get("size").asInt() == size) {
				return queue.get("waiting").asInt();
			}
		}
		return -1;
	}

	static String anyQueue(int size) {
		return "matching:queue:{any:" + size + "}";
	}

	/** A join that must wait. */
	static void waits(Api api, String token, String fields) {
		Response waiting = join(api, token, fields);
		assertThat(waiting.status()).as(waiting.body()).isEqualTo(202);
	}

	static Response join(Api api, String token, String fields) {
		return InterestsIT.join(api, token, fields);
	}

}
