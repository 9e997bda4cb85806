package io.kindling.matching.queue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A join id carries the join's address and, for a join of several topics, those topics:
 * every queue that pops its entry reads back the same claim.
 */
class QueueEntryTests {

	static final Instant SINCE = Instant.parse("2026-12-05T10:00:00.123Z");

	@Test
	void aJoinOfOneTopicCarriesItsAddressAndNoTopics() {
		QueueEntry entry = new QueueEntry("token", QueueEntry.newJoinId("2001:db8::1"), SINCE);

		assertThat(entry.joinId()).doesNotContain(":").matches("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+");
		assertThat(entry.address()).isEqualTo("2001:db8::1");
		assertThat(entry.topicIds()).isEmpty();
		assertThat(entry.waiting(new MatchQueue(42, 3)).queues()).containsExactly(new MatchQueue(42, 3));
	}

	@Test
	void aJoinOfSeveralTopicsReadsBackTheSameClaimFromWhicheverQueuePopsIt() {
		QueueEntry entry = new QueueEntry("token", QueueEntry.newJoinId("203.0.113.7", List.of(3L, 1L, 42L)), SINCE);

		assertThat(entry.address()).isEqualTo("203.0.113.7");
		assertThat(entry.topicIds()).containsExactly(3L, 1L, 42L);
		TokenState.Waiting fromFirst = entry.waiting(new MatchQueue(3, 2));
		TokenState.Waiting fromLast = entry.waiting(new MatchQueue(42, 2));
		assertThat(fromLast).isEqualTo(fromFirst);
		assertThat(fromLast.queue()).isEqualTo(new MatchQueue(3, 2));
		assertThat(fromLast.queues()).containsExactly(new MatchQueue(3, 2), new MatchQueue(1, 2),
				new MatchQueue(42, 2));
		assertThat(TokenState.parse(fromLast.fields())).isEqualTo(fromLast);
		assertThat(QueueEntry.parse(entry.member(), "1796464800123")).isEqualTo(entry);
	}

	@Test
	void aJoinThatOptedInToTheFallbackCarriesItsWaitAndIsScoredInTheFallbackQueueByWhenItBecomesEligible() {
		QueueEntry entry = new QueueEntry("token",
				QueueEntry.newJoinId("203.0.113.7", List.of(42L), Optional.of(Duration.ofSeconds(30))), SINCE);
		MatchQueue anyTopic = MatchQueue.anyTopic(2);

		assertThat(entry.fallbackAfter()).contains(Duration.ofSeconds(30));
		assertThat(entry.address()).isEqualTo("203.0.113.7");
		TokenState.Waiting waiting = entry.waiting(anyTopic);
		assertThat(waiting.queue()).isEqualTo(new MatchQueue(42, 2));
		assertThat(waiting.queues()).containsExactly(new MatchQueue(42, 2));
		assertThat(waiting.fallbackQueue()).contains(anyTopic);
		assertThat(waiting.allQueues()).containsExactly(new MatchQueue(42, 2), anyTopic);
		assertThat(entry.scoreIn(new MatchQueue(42, 2))).isEqualTo(SINCE.toEpochMilli());
		assertThat(entry.scoreIn(anyTopic)).isEqualTo(SINCE.toEpochMilli() + 30_000);
		assertThat(QueueEntry.parse(entry.member(), String.valueOf(entry.scoreIn(anyTopic)), anyTopic))
			.isEqualTo(entry);
		assertThat(anyTopic.key()).isEqualTo("matching:queue:{any:2}");
		assertThat(MatchQueue.fromKey(anyTopic.key())).isEqualTo(anyTopic);
		assertThat(new QueueEntry("token", QueueEntry.newJoinId("203.0.113.7", List.of(42L)), SINCE)
			.waiting(new MatchQueue(42, 2))
			.fallbackQueue()).isEmpty();
	}

	@Test
	void anIdThisServiceDidNotWriteCarriesNothing() {
		QueueEntry entry = new QueueEntry("token", "lost-join", SINCE);

		assertThat(entry.address()).isEmpty();
		assertThat(entry.topicIds()).isEmpty();
		assertThat(new QueueEntry("token", "a.b.x-y", SINCE).topicIds()).isEmpty();
	}

}
