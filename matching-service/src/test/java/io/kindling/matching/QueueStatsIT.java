package io.kindling.matching;

import java.time.Duration;

import io.kindling.infra.http.Response;
import io.kindling.support.web.WebEdgeProperties;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code GET /api/matching/queues}, the estimated wait of waiting answers and the same
 * figures on Prometheus, from the snapshot the sweeper refreshes.
 */
class QueueStatsIT extends RoomFeatureTest {

	@Autowired
	WebEdgeProperties edge;

	@Test
	void everyActiveTopicsTwoQueuesAreListedWithASession() {
		assertThat(this.api.send("GET", "/api/matching/queues", null, null).status()).isEqualTo(401);
		String token = this.api.session();
		JsonNode queues = this.api.send("GET", "/api/matching/queues", token, null).json().get("queues");
		assertThat(queues.findValuesAsString("topic_id")).contains("1", "42").doesNotContain("99");
		JsonNode first = queues.get(0);
		assertThat(first.properties().stream().map(java.util.Map.Entry::getKey).toList()).containsExactly("topic_id",
				"size", "waiting", "oldest_wait_ms", "estimated_wait_ms");
	}

	@Test
	void theFiguresFollowTheQueueAndTheWaitingAnswersCarryTheEstimate() {
		String token = this.api.session();
		String a = this.api.session();
		String b = this.api.session();
		Response aWaits = this.api.join(a, 3, 3);
		// alone in a size-3 queue nobody else joined lately: dropped at the timeout
		assertThat(aWaits.json().get("estimated_wait_ms").asLong()).isEqualTo(Duration.ofMinutes(5).toMillis());
		this.clock.advance(Duration.ofSeconds(10));
		this.api.join(b, 3, 3);
		await().atMost(Duration.ofSeconds(5)).until(() -> queue(token, 3, 3).get("waiting").asInt() == 2);
		JsonNode queue = queue(token, 3, 3);
		assertThat(queue.get("oldest_wait_ms").asLong()).isEqualTo(10_000);
		assertThat(queue.get("estimated_wait_ms").asLong()).as("a newcomer completes the room").isZero();
		// two waiting: the fallback forms their room of two 50 s from now, if nobody
		// comes
		// first (two joins in the last ten seconds are 0.2 a second: 5 s on average)
		long aEstimate = this.api.status(a).json().get("estimated_wait_ms").asLong();
		assertThat(aEstimate).isBetween(0L, 50_000L);

		this.clock.advance(Duration.ofSeconds(5));
		await().atMost(Duration.ofSeconds(5)).until(() -> queue(token, 3, 3).get("oldest_wait_ms").asLong() == 15_000);
		String prometheus = this.api.send("GET", "/actuator/prometheus", this.edge.metricsToken(), null).body();
		assertThat(prometheus).contains("kindling_matching_queue_waiting{size=\"3\",topic=\"3\"} 2.0")
			.contains("kindling_matching_queue_oldest_wait_seconds{size=\"3\",topic=\"3\"} 15.0")
			.contains("kindling_matching_queue_estimated_wait_seconds{size=\"3\",topic=\"3\"} 0.0");

		this.api.join(this.api.session(), 3, 3);
		await().atMost(Duration.ofSeconds(5)).until(() -> queue(token, 3, 3).get("waiting").asInt() == 0);
		assertThat(queue(token, 3, 3).get("oldest_wait_ms").asLong()).isZero();
	}

	private JsonNode queue(String token, long topicId, int size) {
		for (JsonNode queue : this.api.send("GET", "/api/matching/queues", token, null).json().get("queues")) {
			if (queue.get("topic_id").asLong() == topicId && queue.get("size").asInt() == size) {
				return queue;
			}
		}
		throw new AssertionError("no queue " + topicId + "/" + size);
	}

}
