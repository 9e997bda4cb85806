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
	void aPartysEntryIsTheCreatorsAndStandsForBothMembersEachWithItsOwnAddress() {
		String creator = "creator-token_A";
		String member = "member-token_B";
		String joinId = QueueEntry.newPartyJoinId("203.0.113.7", List.of(4L), creator, member, "2001:db8::1");
		QueueEntry entry = QueueEntry.parse(creator + ":" + joinId, "1796464800123");

		assertThat(joinId).doesNotContain(":");
		assertThat(entry.party()).contains(new QueueEntry.Party(creator, member, "2001:db8::1"));
		assertThat(entry.topicIds()).containsExactly(4L);
		List<QueueEntry> people = entry.people();
		assertThat(people).extracting(QueueEntry::token).containsExactly(creator, member);
		assertThat(people).extracting(QueueEntry::member).containsOnly(creator + ":" + joinId);
		assertThat(people).extracting(QueueEntry::address).containsExactly("203.0.113.7", "2001:db8::1");
		TokenState.Waiting memberWaits = people.get(1).waiting(new MatchQueue(4, 3));
		assertThat(memberWaits).isEqualTo(people.get(0).waiting(new MatchQueue(4, 3)));
		assertThat(memberWaits.entry(member).member()).as("the member's poll finds the creator's entry")
			.isEqualTo(entry.member());
	}

	@Test
	void aJoinWithoutAPartyStandsForItselfAlone() {
		QueueEntry entry = new QueueEntry("token", QueueEntry.newJoinId("203.0.113.7", List.of(1L, 2L)), SINCE);

		assertThat(entry.party()).isEmpty();
		assertThat(entry.people()).containsExactly(entry);
	}

	@Test
	void everyCombinationOfTopicsPartyAndFallbackReadsBackWhole() {
		Optional<QueueEntry.Party> party = Optional
			.of(new QueueEntry.Party("creator-token_A", "member-token_B", "2001:db8::1"));
		Optional<Duration> after = Optional.of(Duration.ofSeconds(45));
		for (List<Long> topics : List.of(List.of(7L), List.of(7L, 8L, 9L))) {
			for (Optional<QueueEntry.Party> withParty : List.of(Optional.<QueueEntry.Party>empty(), party)) {
				for (Optional<Duration> withFallback : List.of(Optional.<Duration>empty(), after)) {
					String joinId = QueueEntry.newJoinId("203.0.113.7", topics, withParty, withFallback);
					String token = withParty.map(QueueEntry.Party::creator).orElse("token");
					QueueEntry entry = QueueEntry.parse(token + ":" + joinId, "1796464800123");
					String combination = topics + " " + withParty + " " + withFallback + ": " + joinId;

					assertThat(joinId).as(combination).doesNotContain(":");
					assertThat(entry.token()).as(combination).isEqualTo(token);
					assertThat(entry.address()).as(combination).isEqualTo("203.0.113.7");
					assertThat(entry.party()).as(combination).isEqualTo(withParty);
					assertThat(entry.fallbackAfter()).as(combination).isEqualTo(withFallback);
					boolean named = topics.size() > 1 || withParty.isPresent() || withFallback.isPresent();
					assertThat(entry.topicIds()).as(combination).isEqualTo(named ? topics : List.of());
				}
			}
		}
	}

	@Test
	void aPartnerAddressThatEncodesLikeAFallbackWaitIsStillTheAddress() {
		// "f=" never appears in URL-safe base64 without padding, so no address reads as a
		// wait; an address whose encoding starts with "f" stays an address
		String joinId = QueueEntry.newJoinId("203.0.113.7", List.of(7L),
				Optional.of(new QueueEntry.Party("a", "b", "|")), Optional.empty());

		assertThat(joinId).endsWith(".fA");
		assertThat(QueueEntry.partyOf(joinId)).contains(new QueueEntry.Party("a", "b", "|"));
		assertThat(QueueEntry.fallbackAfterOf(joinId)).isEmpty();
	}

	@Test
	void anIdThisServiceDidNotWriteCarriesNothing() {
		QueueEntry entry = new QueueEntry("token", "lost-join", SINCE);

		assertThat(entry.address()).isEmpty();
		assertThat(entry.topicIds()).isEmpty();
		assertThat(new QueueEntry("token", "a.b.x-y", SINCE).topicIds()).isEmpty();
	}

}
