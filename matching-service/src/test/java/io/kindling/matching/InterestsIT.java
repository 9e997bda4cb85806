package io.kindling.matching;

import java.time.Duration;
import java.util.List;

import io.kindling.infra.http.EventStream;
import io.kindling.infra.http.Request;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServerSentEvent;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.matching.queue.RedisKeys;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Interests through the HTTP API on real Redis and MariaDB, two instances: a join of
 * several topics waits in each of their queues and meets anyone who shares one, in the
 * topic they share; the lists a join may not name are refused and change nothing.
 */
@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "kindling_matching")
class InterestsIT {

	@RegisterExtension
	static final TwoInstances.PerClass twoInstances = new TwoInstances.PerClass();

	TwoInstances instances;

	@BeforeEach
	void instances() {
		this.instances = twoInstances.get();
	}

	@Test
	void aJoinOfSeveralTopicsMeetsSomeoneWhoSharesOneInTheTopicTheyShareAndLeavesItsOtherQueues() throws Exception {
		String a = this.instances.a.session();
		String b = this.instances.b.session();
		Response waits = join(this.instances.a, a, "\"topic_ids\": [1, 2, 3], \"size\": 2");
		assertThat(waits.status()).as(waits.body()).isEqualTo(202);
		assertThat(waits.json().get("topic_id").asLong()).isEqualTo(1);
		assertThat(waits.json().get("topic_ids").toString()).isEqualTo("[1,2,3]");
		for (long topic : List.of(1L, 2L, 3L)) {
			assertThat(this.instances.redis.opsForZSet().size(RedisKeys.queue(topic, 2))).isOne();
		}
		EventStream stream = this.instances.b.http()
			.events(Request.get("/api/matching/events").bearer(a))
			.awaitFirstLine(":subscribed");

		Response matched = join(this.instances.b, b, "\"topic_ids\": [4, 3], \"size\": 2");

		assertThat(matched.status()).as(matched.body()).isEqualTo(200);
		assertThat(matched.json().get("topic_id").asLong()).as("the topic they share").isEqualTo(3);
		assertThat(this.instances.a.status(a).body()).isEqualTo(matched.body());
		ServerSentEvent pushed = stream.nextEvent("matched");
		assertThat(Api.JSON.readTree(pushed.data())).isEqualTo(matched.json());
		stream.close();
		for (long topic : List.of(1L, 2L, 3L, 4L)) {
			assertThat(this.instances.redis.opsForZSet().size(RedisKeys.queue(topic, 2))).as("topic " + topic).isZero();
		}
		assertThat(this.instances.jdbc.sql("SELECT topic_id FROM conversations WHERE id = :id")
			.param("id", matched.json().get("conversation_id").asLong())
			.query(Long.class)
			.single()).isEqualTo(3);
	}

	@Test
	void topicIdAloneStillWaitsInOneQueueAndIsAnsweredAsBefore() {
		String a = this.instances.a.session();
		Response waits = this.instances.a.join(a, 2, 3);
		assertThat(waits.status()).isEqualTo(202);
		assertThat(waits.json().has("topic_ids")).isFalse();
		Response listOfOne = join(this.instances.b, this.instances.b.session(), "\"topic_ids\": [2], \"size\": 3");
		assertThat(listOfOne.status()).isEqualTo(202);
		assertThat(listOfOne.json().has("topic_ids")).isFalse();
		assertThat(this.instances.redis.opsForZSet().size(RedisKeys.queue(2, 3))).isEqualTo(2);
	}

	@Test
	void aLeaveTakesTheJoinOutOfEveryQueue() {
		String a = this.instances.a.session();
		assertThat(join(this.instances.a, a, "\"topic_ids\": [1, 42], \"size\": 3").status()).isEqualTo(202);

		assertThat(this.instances.b.leave(a).status()).isEqualTo(204);

		assertThat(this.instances.a.status(a).field("status")).isEqualTo("idle");
		assertThat(this.instances.redis.opsForZSet().size(RedisKeys.queue(1, 3))).isZero();
		assertThat(this.instances.redis.opsForZSet().size(RedisKeys.queue(42, 3))).isZero();
	}

	@Test
	void aJoinWaitingInSeveralQueuesIsCountedInEachAndEstimatedByTheSoonest() {
		String token = this.instances.a.session();
		String a = this.instances.a.session();
		String b = this.instances.a.session();
		assertThat(this.instances.a.join(b, 4, 3).status()).isEqualTo(202);
		await().atMost(Duration.ofSeconds(5)).until(() -> waiting(token, 4) == 1);
		this.instances.clock.advance(Duration.ofSeconds(10));

		Response waits = join(this.instances.a, a, "\"topic_ids\": [3, 4], \"size\": 3");
		assertThat(waits.status()).isEqualTo(202);

		await().atMost(Duration.ofSeconds(5)).until(() -> waiting(token, 3) == 1 && waiting(token, 4) == 2);
		// alone in music, where nobody else joined, it would wait out the timeout (5
		// min);
		// in travel one more arrival (one every 10 s lately) makes its room
		long estimate = this.instances.a.status(a).json().get("estimated_wait_ms").asLong();
		assertThat(estimate).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(10).toMillis());
	}

	@Test
	void listsAJoinMayNotNameAreRefusedAndChangeNothing() {
		String a = this.instances.a.session();
		for (String body : List.of("\"topic_ids\": [], \"size\": 2", "\"topic_ids\": [1, 2, 3, 4, 42, 5], \"size\": 2",
				"\"topic_ids\": [1, 2, 1], \"size\": 2", "\"topic_id\": 1, \"topic_ids\": [2], \"size\": 2",
				"\"size\": 2")) {
			Response refused = join(this.instances.a, a, body);
			assertThat(refused.status()).as(body).isEqualTo(400);
			assertThat(refused.field("type")).as(body).endsWith("/topics-invalid");
		}
		for (String body : List.of("\"topic_ids\": [1, 99], \"size\": 2", "\"topic_ids\": [1, 12345], \"size\": 2")) {
			Response refused = join(this.instances.a, a, body);
			assertThat(refused.status()).as(body).isEqualTo(400);
			assertThat(refused.field("type")).as(body).endsWith("/topic-unavailable");
		}
		assertThat(this.instances.a.status(a).field("status")).isEqualTo("idle");
		assertThat(this.instances.redis.opsForZSet().size(RedisKeys.queue(1, 2))).isZero();
	}

	/**
	 * A thousand clients on both instances, one in three naming a second topic (the one
	 * nobody names alone): nobody in two rooms, every room of its size in MySQL with
	 * people who all named its topic, nobody left waiting.
	 */
	@Test
	void aCrowdWithInterestsNeverSharesAPersonBetweenRooms() throws Exception {
		Crowd crowd = new Crowd(this.instances, false, Crowd.Mix.LATE_NIGHT);
		crowd.run(1_000, () -> {
		});
		crowd.assertFinalState(1_000);
	}

	/**
	 * A thousand clients on both instances, half of them naming one topic and half 2 to 5
	 * of the five: nobody in two rooms, every room of its size in MySQL with people who
	 * all named its topic, nobody left waiting.
	 */
	@Test
	void aMixedCrowdOfOneTopicAndSeveralNeverSharesAPersonBetweenRooms() throws Exception {
		Crowd crowd = new Crowd(this.instances, false, Crowd.Mix.MIXED);
		crowd.run(1_000, () -> {
		});
		crowd.assertFinalState(1_000);
	}

	static Response join(Api api, String token, String fields) {
		return api.send("POST", "/api/matching", token, "{" + fields + "}");
	}

	int waiting(String token, long topicId) {
		return queue(token, topicId).get("waiting").asInt();
	}

	JsonNode queue(String token, long topicId) {
		JsonNode queues = this.instances.a.send("GET", "/api/matching/queues", token, null).json().get("queues");
		for (JsonNode queue : queues) {
			if (queue.get("topic_id").asLong() == topicId && queue.get("size").asInt() == 3) {
				return queue;
			}
		}
		throw new AssertionError("no queue of topic " + topicId);
	}

}
