package io.kindling.matching.queue;

import java.time.Instant;
import java.util.List;

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
	void anIdThisServiceDidNotWriteCarriesNothing() {
		QueueEntry entry = new QueueEntry("token", "lost-join", SINCE);

		assertThat(entry.address()).isEmpty();
		assertThat(entry.topicIds()).isEmpty();
		assertThat(new QueueEntry("token", "a.b.x-y", SINCE).topicIds()).isEmpty();
	}

}
