package io.kindling.matching.room;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.kindling.infra.test.MutableClock;
import io.kindling.matching.MatchingProperties;
import io.kindling.matching.ban.BanList;
import io.kindling.matching.ban.BanRefusals;
import io.kindling.matching.queue.MatchQueue;
import io.kindling.matching.queue.OpenSeat;
import io.kindling.matching.queue.QueueEntry;
import io.kindling.matching.queue.TokenState;
import io.kindling.matching.session.Session;
import io.kindling.matching.topic.Topic;
import io.kindling.matching.topic.TopicCatalogue;
import io.kindling.support.web.Refusal;
import io.kindling.support.web.Refused;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.dao.DataAccessResourceFailureException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The room claim's state machine, state by event, on the claim store and the room ledger
 * in memory: each transition, what it writes where, and each repair of what a crash or a
 * failover leaves. The scripts themselves and MySQL are proved by the integration tests
 * ({@code MatchingIT}, {@code RoomsOnClusterIT}, {@code RoomsFailoverIT}).
 */
class RoomClaimsTests {

	/** The defaults, as the service binds them. */
	static final MatchingProperties SETTINGS = new Binder(new MapConfigurationPropertySource(Map.of()))
		.bindOrCreate("kindling.matching", MatchingProperties.class);

	static final String ADDRESS = "203.0.113.7";

	static final MatchQueue PAIRS = new MatchQueue(1, 2);

	static final MatchQueue THREES = new MatchQueue(1, 3);

	final MutableClock clock = new MutableClock(Instant.parse("2026-12-05T10:00:00.123Z"));

	final InMemoryClaimStore store = new InMemoryClaimStore(this.clock, SETTINGS);

	final InMemoryRoomLedger ledger = new InMemoryRoomLedger(SETTINGS.roomTtl());

	final Bans bans = new Bans();

	final Set<Long> retired = new HashSet<>();

	final List<RoomFormed> pushed = new ArrayList<>();

	final List<RoomBackfilled> backfilled = new ArrayList<>();

	final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	/** Each {@link RoomLeft} as the conversation hears it, with what it sees then. */
	final List<Told> told = new ArrayList<>();

	/** What the conversation does when told a leave: nothing, unless a test says. */
	Runnable onLeft = () -> {
	};

	final RoomClaims claims = new RoomClaims(this.store, this.ledger, this.bans, new Topics(), this::publish,
			new RoomMetrics(this.meters), this.clock, SETTINGS);

	@Nested
	class Idle {

		@Test
		void aJoinWaitsInItsQueueInTwoCalls() {
			TokenState.Waiting waiting = (TokenState.Waiting) RoomClaimsTests.this.claims.join("a", ADDRESS, PAIRS);
			int calls = RoomClaimsTests.this.store.calls();

			assertThat(waiting.queue()).isEqualTo(PAIRS);
			assertThat(waiting.since()).isEqualTo(RoomClaimsTests.this.clock.instant());
			assertThat(claim("a")).isEqualTo(waiting);
			assertThat(RoomClaimsTests.this.store.waitingIn(PAIRS)).containsExactly("a");
			assertThat(RoomClaimsTests.this.store.isActive(PAIRS)).isTrue();
			assertThat(calls).as("the claim, then the entry with the first try").isEqualTo(2);
		}

		@Test
		void aJoinThatCompletesARoomPutsEveryoneInItWrittenAndPushed() {
			join("a", PAIRS);
			RoomClaimsTests.this.clock.advance(Duration.ofSeconds(3));
			int before = RoomClaimsTests.this.store.calls();

			TokenState.Matched matched = (TokenState.Matched) RoomClaimsTests.this.claims.join("b", ADDRESS, PAIRS);
			int calls = RoomClaimsTests.this.store.calls() - before;

			assertThat(claim("a")).isEqualTo(matched);
			assertThat(matched.matchedAt()).isEqualTo(RoomClaimsTests.this.clock.instant());
			assertThat(RoomClaimsTests.this.ledger.written()).singleElement()
				.satisfies((written) -> assertThat(written.conversationId()).isEqualTo(matched.conversationId()));
			assertThat(RoomClaimsTests.this.ledger.liveSeat("a", now())).isEqualTo(matched.roomId());
			assertThat(RoomClaimsTests.this.store.expiryOf("a")).hasValue(now().plus(SETTINGS.roomTtl()));
			assertThat(RoomClaimsTests.this.store.waitingIn(PAIRS)).isEmpty();
			assertThat(RoomClaimsTests.this.pushed).singleElement()
				.satisfies((room) -> assertThat(room.tokens()).containsExactly("a", "b"));
			assertThat(calls).as("claim, entry with the pop, claims into the room, confirmation").isEqualTo(4);
		}

		@Test
		void aJoinOfABannedSessionOrAddressIsRefusedBeforeAnythingIsWritten() {
			RoomClaimsTests.this.bans.sessions.add(Session.keyOf("a"));
			RoomClaimsTests.this.bans.addresses.add("198.51.100.1");

			assertRefused(() -> RoomClaimsTests.this.claims.join("a", ADDRESS, PAIRS), BanRefusals.BANNED);
			assertRefused(() -> RoomClaimsTests.this.claims.join("b", "198.51.100.1", PAIRS), BanRefusals.BANNED);
			assertThat(RoomClaimsTests.this.store.calls()).isZero();
		}

		@Test
		void aJoinOfARetiredTopicIsRefusedBeforeAnythingIsWritten() {
			RoomClaimsTests.this.retired.add(PAIRS.topicId());

			assertRefused(() -> RoomClaimsTests.this.claims.join("a", ADDRESS, PAIRS), JoinRefusals.TOPIC_UNAVAILABLE);
			assertThat(RoomClaimsTests.this.store.calls()).isZero();
		}

		@Test
		void aJoinBannedBetweenItsClaimAndItsAnswerTakesItselfBackOut() {
			// the ban commits (and this instance's cache forgets) after the join's first
			// question, before its second
			RoomClaimsTests.this.bans.bitesAfterQuestions = 1;
			RoomClaimsTests.this.bans.sessions.add(Session.keyOf("a"));

			assertRefused(() -> RoomClaimsTests.this.claims.join("a", ADDRESS, PAIRS), BanRefusals.BANNED);
			assertThat(claim("a")).isInstanceOf(TokenState.Idle.class);
			assertThat(RoomClaimsTests.this.store.waitingIn(PAIRS)).isEmpty();
		}

		@Test
		void aPollFindsTheLiveRoomMySqlSeatsItInWhenAFailoverLostItsClaim() {
			TokenState.Matched room = formPair("a", "b");
			RoomClaimsTests.this.store.set("a", new TokenState.Idle());

			assertThat(poll("a")).isEqualTo(room);
			assertThat(RoomClaimsTests.this.store.expiryOf("a")).isPresent();
			assertThat(counter("kindling.matching.claims.recovered")).isOne();
		}

		@Test
		void aPollWhileMySqlIsAwayAnswersFromRedisAlone() {
			formPair("a", "b");
			RoomClaimsTests.this.store.set("a", new TokenState.Idle());
			RoomClaimsTests.this.ledger.away(true);

			assertThat(poll("a")).isInstanceOf(TokenState.Idle.class);
		}

		@Test
		void aLeaveEndsTheSeatAFailoverHidFromItsClaim() {
			formPair("a", "b");
			RoomClaimsTests.this.store.set("a", new TokenState.Idle());

			RoomClaimsTests.this.claims.leave("a");

			assertThat(RoomClaimsTests.this.ledger.liveSeat("a", now())).isNull();
			assertThat(poll("a")).isInstanceOf(TokenState.Idle.class);
		}

		@Test
		void anEvictionChangesNothing() {
			assertThat(RoomClaimsTests.this.claims.evict("a")).isFalse();
			assertThat(claim("a")).isInstanceOf(TokenState.Idle.class);
		}

	}

	@Nested
	class Waiting {

		@Test
		void aJoinInThisQueueOrAnotherIsRefusedAndChangesNothing() {
			TokenState.Waiting waiting = join("a", PAIRS);

			assertRefused(() -> RoomClaimsTests.this.claims.join("a", ADDRESS, PAIRS), JoinRefusals.ALREADY_JOINED);
			assertRefused(() -> RoomClaimsTests.this.claims.join("a", ADDRESS, THREES), JoinRefusals.ALREADY_JOINED);
			assertThat(claim("a")).isEqualTo(waiting);
			assertThat(RoomClaimsTests.this.store.waitingIn(PAIRS)).containsExactly("a");
			assertThat(RoomClaimsTests.this.store.waitingIn(THREES)).isEmpty();
		}

		@Test
		void aJoinRetriedAfterItsEntryWasLostWaitsAgainAtOnceInTheSameQueueOnly() {
			// the first try's claim was written and its entry never went in (a 503)
			TokenState.Waiting lost = new TokenState.Waiting(PAIRS, now(), "lost-join");
			RoomClaimsTests.this.store.set("a", lost);

			// another queue: that join may still be on its way
			assertRefused(() -> RoomClaimsTests.this.claims.join("a", ADDRESS, THREES), JoinRefusals.ALREADY_JOINED);
			assertThat(claim("a")).isEqualTo(lost);
			TokenState.Waiting retried = (TokenState.Waiting) RoomClaimsTests.this.claims.join("a", ADDRESS, PAIRS);
			assertThat(retried.joinId()).isNotEqualTo("lost-join");
			assertThat(RoomClaimsTests.this.store.waitingIn(PAIRS)).containsExactly("a");
			assertThat(counter("kindling.matching.claims.repaired")).isOne();
		}

		@Test
		void aJoinOfAnotherQueueTakesALostWaitOnceTheGraceIsOver() {
			RoomClaimsTests.this.store.set("a", new TokenState.Waiting(PAIRS, now(), "lost-join"));
			RoomClaimsTests.this.clock.advance(RoomClaims.ORPHAN_GRACE);

			assertThat(RoomClaimsTests.this.claims.join("a", ADDRESS, THREES)).isInstanceOf(TokenState.Waiting.class);
			assertThat(RoomClaimsTests.this.store.waitingIn(THREES)).containsExactly("a");
		}

		@Test
		void aPollFormsTheRoomOfTwoOfASizeThreeQueueOnceItsHeadWaitedTheFallback() {
			join("a", THREES);
			RoomClaimsTests.this.clock.advance(Duration.ofSeconds(30));
			join("b", THREES);
			RoomClaimsTests.this.clock.advance(Duration.ofSeconds(29));
			assertThat(poll("b")).isInstanceOf(TokenState.Waiting.class);

			RoomClaimsTests.this.clock.advance(Duration.ofSeconds(1));
			TokenState.Matched matched = (TokenState.Matched) poll("b");

			assertThat(matched.roomType()).isEqualTo(2);
			assertThat(claim("a")).isEqualTo(matched);
			assertThat(RoomClaimsTests.this.ledger.written()).singleElement()
				.satisfies((written) -> assertThat(written.room().fallback()).isTrue());
		}

		@Test
		void aPollPastTheWaitTimeoutLeavesTheTokenIdle() {
			join("a", THREES);
			RoomClaimsTests.this.clock.advance(SETTINGS.waitTimeout().minusMillis(1));
			assertThat(poll("a")).isInstanceOf(TokenState.Waiting.class);

			RoomClaimsTests.this.clock.advance(Duration.ofMillis(1));

			assertThat(poll("a")).isInstanceOf(TokenState.Idle.class);
			assertThat(RoomClaimsTests.this.store.waitingIn(THREES)).isEmpty();
			assertThat(counter("kindling.matching.timeouts")).isOne();
		}

		@Test
		void aPollOfAWaitWhoseEntryItsQueueLostSetsItIdleOnceTheGraceIsOver() {
			RoomClaimsTests.this.store.set("a", new TokenState.Waiting(PAIRS, now(), "lost-join"));
			RoomClaimsTests.this.clock.advance(RoomClaims.ORPHAN_GRACE.minusMillis(1));
			assertThat(poll("a")).as("a join between its claim and its entry looks the same")
				.isInstanceOf(TokenState.Waiting.class);

			RoomClaimsTests.this.clock.advance(Duration.ofMillis(1));

			assertThat(poll("a")).isInstanceOf(TokenState.Idle.class);
		}

		@Test
		void aPollOfABannedSessionOrFromABannedAddressTakesItOut() {
			join("a", PAIRS);
			RoomClaimsTests.this.bans.addresses.add("198.51.100.1");

			assertThat(poll("a")).isInstanceOf(TokenState.Waiting.class);
			assertThat(RoomClaimsTests.this.claims.poll("a", "198.51.100.1")).isInstanceOf(TokenState.Idle.class);
			assertThat(RoomClaimsTests.this.store.waitingIn(PAIRS)).isEmpty();
		}

		@Test
		void aRoomPoppedByAProcessThatDiedIsWaitedOnUntilThePendingTtlThenTheTokenIsIdle() {
			join("a", THREES);
			join("b", THREES);
			// a process pops the fallback room, and dies before moving any claim
			assertThat(RoomClaimsTests.this.store
				.form(THREES, now().plus(SETTINGS.fallbackAfter()), java.util.Optional.empty())
				.room()).isPresent();
			RoomClaimsTests.this.clock.advance(SETTINGS.fallbackAfter());
			assertThat(RoomClaimsTests.this.store.poppedFrom(THREES)).containsExactlyInAnyOrder("a", "b");

			assertThat(poll("a")).as("while the popped record stands, the room may be on its way")
				.isInstanceOf(TokenState.Waiting.class);
			RoomClaimsTests.this.clock.advance(SETTINGS.roomPendingTtl());

			assertThat(poll("a")).isInstanceOf(TokenState.Idle.class);
			assertThat(poll("b")).isInstanceOf(TokenState.Idle.class);
			assertThat(counter("kindling.matching.claims.repaired")).isEqualTo(2);
		}

		@Test
		void aLeaveTakesTheClaimThenTheEntry() {
			join("a", PAIRS);

			RoomClaimsTests.this.claims.leave("a");

			assertThat(claim("a")).isInstanceOf(TokenState.Idle.class);
			assertThat(RoomClaimsTests.this.store.waitingIn(PAIRS)).isEmpty();
			assertThat(RoomClaimsTests.this.claims.join("a", ADDRESS, PAIRS)).isInstanceOf(TokenState.Waiting.class);
		}

		@Test
		void aLeaveWhileMySqlIsAwayStillLeavesTheQueue() {
			join("a", PAIRS);
			RoomClaimsTests.this.ledger.away(true);

			RoomClaimsTests.this.claims.leave("a");

			assertThat(claim("a")).isInstanceOf(TokenState.Idle.class);
			assertThat(RoomClaimsTests.this.store.waitingIn(PAIRS)).isEmpty();
		}

		@Test
		void anEvictionTakesTheClaimThenTheEntry() {
			join("a", PAIRS);

			assertThat(RoomClaimsTests.this.claims.evict("a")).isTrue();

			assertThat(claim("a")).isInstanceOf(TokenState.Idle.class);
			assertThat(RoomClaimsTests.this.store.waitingIn(PAIRS)).isEmpty();
		}

		@Test
		void theSweeperFormsRoomsUntilNoneIsCompleteAndTellsHowManyAreLeft() {
			for (String token : List.of("a", "b", "c", "d", "e")) {
				RoomClaimsTests.this.claims.join(token, ADDRESS, THREES);
				RoomClaimsTests.this.clock.advance(Duration.ofMillis(1));
			}
			// the joins formed the first room already
			assertThat(RoomClaimsTests.this.store.waitingIn(THREES)).containsExactly("d", "e");
			RoomClaimsTests.this.clock.advance(SETTINGS.fallbackAfter());

			assertThat(RoomClaimsTests.this.claims.form(THREES, 200)).isEqualTo(new RoomClaims.Sweep(1, 0));
			assertThat(claim("d")).isEqualTo(claim("e")).isInstanceOf(TokenState.Matched.class);
		}

		@Test
		void aPoppedRoomOfSomeoneWhoLeftIsUndoneAndTheOthersKeepTheirPlaces() {
			TokenState.Waiting a = join("a", PAIRS);
			RoomClaimsTests.this.clock.advance(Duration.ofSeconds(1));
			// b left, and its process died between taking its claim and its entry
			RoomClaimsTests.this.store.addEntry(PAIRS, new QueueEntry("b", "left-join", now()));

			assertThat(RoomClaimsTests.this.claims.form(PAIRS, 200)).isEqualTo(new RoomClaims.Sweep(0, 1));

			assertThat(claim("a")).isEqualTo(a);
			assertThat(RoomClaimsTests.this.store.waitingIn(PAIRS)).containsExactly("a");
			assertThat(RoomClaimsTests.this.store.poppedFrom(PAIRS)).isEmpty();
			assertThat(RoomClaimsTests.this.ledger.written()).isEmpty();
			assertThat(counter("kindling.matching.rooms.undone")).isOne();
		}

		@Test
		void aPoppedBannedSessionIsDroppedAndTheOthersKeepTheirPlaces() {
			TokenState.Waiting a = join("a", THREES);
			join("b", THREES);
			// b's ban reached this instance after its join
			RoomClaimsTests.this.bans.sessions.add(Session.keyOf("b"));

			join("c", THREES);

			assertThat(claim("a")).isEqualTo(a);
			assertThat(claim("b")).isInstanceOf(TokenState.Idle.class);
			assertThat(RoomClaimsTests.this.store.waitingIn(THREES)).containsExactly("a", "c");
			assertThat(RoomClaimsTests.this.ledger.written()).isEmpty();
		}

		@Test
		void aConversationMySqlCannotWritePutsEveryoneBackWhereTheyWere() {
			TokenState.Waiting a = join("a", PAIRS);
			RoomClaimsTests.this.ledger.away(true);
			RoomClaimsTests.this.clock.advance(Duration.ofSeconds(5));

			TokenState.Waiting b = (TokenState.Waiting) RoomClaimsTests.this.claims.join("b", ADDRESS, PAIRS);

			assertThat(claim("a")).isEqualTo(a);
			assertThat(claim("b")).isEqualTo(b);
			assertThat(RoomClaimsTests.this.store.waitingIn(PAIRS)).containsExactly("a", "b");
			assertThat(counter("kindling.matching.conversation.write.failures")).isOne();
			RoomClaimsTests.this.ledger.away(false);
			assertThat(poll("a")).isInstanceOf(TokenState.Matched.class).isEqualTo(claim("b"));
		}

	}

	@Nested
	class FallbackToAnyone {

		static final MatchQueue ANY_PAIRS = MatchQueue.anyTopic(2);

		@Test
		void aJoinThatOptsInWaitsInItsTopicAndInTheFallbackQueueUnderOneClaim() {
			TokenState.Waiting waiting = (TokenState.Waiting) RoomClaimsTests.this.claims.join("a", ADDRESS,
					List.of(1L), 2, Optional.of(Duration.ofSeconds(10)));

			assertThat(waiting.allQueues()).containsExactly(PAIRS, ANY_PAIRS);
			assertThat(RoomClaimsTests.this.store.waitingIn(PAIRS)).containsExactly("a");
			assertThat(RoomClaimsTests.this.store.waitingIn(ANY_PAIRS)).containsExactly("a");
			assertThat(RoomClaimsTests.this.store.isActive(ANY_PAIRS)).isTrue();
		}

		@Test
		void twoWhoOptedInMeetOnlyOnceBothArePastTheirOwnWaitInTheTopicOfTheLongestWaiter() {
			RoomClaimsTests.this.claims.join("a", ADDRESS, List.of(1L), 2, Optional.of(Duration.ofSeconds(30)));
			RoomClaimsTests.this.clock.advance(Duration.ofSeconds(5));
			RoomClaimsTests.this.claims.join("b", ADDRESS, List.of(2L, 3L), 2, Optional.of(Duration.ofSeconds(10)));
			RoomClaimsTests.this.clock.advance(Duration.ofSeconds(24));
			assertThat(RoomClaimsTests.this.claims.poll("b", ADDRESS)).as("a waited 29 s of its 30")
				.isInstanceOf(TokenState.Waiting.class);

			RoomClaimsTests.this.clock.advance(Duration.ofSeconds(1));
			TokenState.Matched matched = (TokenState.Matched) RoomClaimsTests.this.claims.poll("b", ADDRESS);

			assertThat(matched.fallback()).isTrue();
			assertThat(matched.topicId()).as("a's topic: it waited longest").isEqualTo(1);
			assertThat(claim("a")).isEqualTo(matched);
			assertThat(RoomClaimsTests.this.pushed).singleElement().satisfies((room) -> {
				assertThat(room.fallback()).isTrue();
				assertThat(room.topicId()).isEqualTo(1);
			});
			for (MatchQueue queue : List.of(PAIRS, new MatchQueue(2, 2), new MatchQueue(3, 2), ANY_PAIRS)) {
				assertThat(RoomClaimsTests.this.store.waitingIn(queue)).as(queue.toString()).isEmpty();
			}
			assertThat(RoomClaimsTests.this.ledger.written()).singleElement()
				.satisfies((room) -> assertThat(room.room().topicFallback()).isTrue());
		}

		@Test
		void whoDidNotOptInIsNeverTakenAcrossTopics() {
			RoomClaimsTests.this.claims.join("a", ADDRESS, List.of(1L), 2, Optional.of(Duration.ofSeconds(10)));
			RoomClaimsTests.this.claims.join("b", ADDRESS, List.of(2L), 2);
			RoomClaimsTests.this.clock.advance(Duration.ofSeconds(200));

			assertThat(RoomClaimsTests.this.claims.poll("a", ADDRESS)).isInstanceOf(TokenState.Waiting.class);
			assertThat(RoomClaimsTests.this.claims.form(ANY_PAIRS, 10).formed()).isZero();
			assertThat(RoomClaimsTests.this.claims.poll("b", ADDRESS)).isInstanceOf(TokenState.Waiting.class);
		}

		@Test
		void aJoinTimedOutInItsTopicLeavesTheFallbackQueueToo() {
			RoomClaimsTests.this.claims.join("a", ADDRESS, List.of(1L), 2, Optional.of(Duration.ofSeconds(300)));
			RoomClaimsTests.this.clock.advance(SETTINGS.waitTimeout());

			RoomClaimsTests.this.claims.form(PAIRS, 10);

			assertThat(claim("a")).isInstanceOf(TokenState.Idle.class);
			assertThat(RoomClaimsTests.this.store.waitingIn(ANY_PAIRS)).isEmpty();
		}

	}

	@Nested
	class Interests {

		static final MatchQueue MUSIC = new MatchQueue(1, 2);

		static final MatchQueue FILMS = new MatchQueue(2, 2);

		static final MatchQueue BOOKS = new MatchQueue(3, 2);

		@Test
		void aJoinOfSeveralTopicsWaitsInEachOfTheirQueuesUnderOneClaim() {
			TokenState.Waiting waiting = (TokenState.Waiting) RoomClaimsTests.this.claims.join("a", ADDRESS,
					List.of(1L, 2L, 3L), 2);
			int calls = RoomClaimsTests.this.store.calls();

			assertThat(waiting.queue()).isEqualTo(MUSIC);
			assertThat(waiting.queues()).containsExactly(MUSIC, FILMS, BOOKS);
			assertThat(claim("a")).isEqualTo(waiting);
			for (MatchQueue queue : List.of(MUSIC, FILMS, BOOKS)) {
				assertThat(RoomClaimsTests.this.store.waitingIn(queue)).containsExactly("a");
				assertThat(RoomClaimsTests.this.store.isActive(queue)).isTrue();
			}
			assertThat(calls).as("the claim, each queue's oldest, then each entry with its first try").isEqualTo(7);
		}

		@Test
		void aJoinWithOneRetiredTopicAmongItsTopicsIsRefusedBeforeAnythingIsWritten() {
			RoomClaimsTests.this.retired.add(2L);

			assertRefused(() -> RoomClaimsTests.this.claims.join("a", ADDRESS, List.of(1L, 2L), 2),
					JoinRefusals.TOPIC_UNAVAILABLE);
			assertThat(RoomClaimsTests.this.store.calls()).isZero();
		}

		@Test
		void theRoomIsInTheSharedTopicAndItsPeopleLeaveTheirOtherQueues() {
			RoomClaimsTests.this.claims.join("a", ADDRESS, List.of(1L, 2L, 3L), 2);
			RoomClaimsTests.this.clock.advance(Duration.ofSeconds(2));

			TokenState.Matched matched = (TokenState.Matched) RoomClaimsTests.this.claims.join("b", ADDRESS,
					List.of(4L, 3L), 2);

			assertThat(matched.topicId()).as("the topic they share").isEqualTo(3);
			assertThat(claim("a")).isEqualTo(matched);
			for (MatchQueue queue : List.of(MUSIC, FILMS, BOOKS, new MatchQueue(4, 2))) {
				assertThat(RoomClaimsTests.this.store.waitingIn(queue)).as(queue.toString()).isEmpty();
			}
			assertThat(RoomClaimsTests.this.pushed).singleElement()
				.satisfies((room) -> assertThat(room.topicId()).isEqualTo(3));
		}

		@Test
		void anEntryWhoseJoinSatDownThroughAnotherQueueIsDroppedWhenPoppedAndTheOthersKeepTheirPlaces() {
			TokenState.Waiting a = (TokenState.Waiting) RoomClaimsTests.this.claims.join("a", ADDRESS, List.of(1L, 2L),
					2);
			RoomClaimsTests.this.claims.join("b", ADDRESS, List.of(2L), 2);
			// a process that seated a in films died before taking a's entry out of music
			RoomClaimsTests.this.store.addEntry(MUSIC, a.entry("a"));
			RoomClaimsTests.this.clock.advance(Duration.ofSeconds(1));

			assertThat(RoomClaimsTests.this.claims.join("c", ADDRESS, List.of(1L), 2))
				.isInstanceOf(TokenState.Waiting.class);

			assertThat(claim("a")).isInstanceOf(TokenState.Matched.class);
			assertThat(RoomClaimsTests.this.store.waitingIn(MUSIC)).containsExactly("c");
			assertThat(RoomClaimsTests.this.ledger.written()).hasSize(1);
			assertThat(counter("kindling.matching.rooms.undone")).isOne();
		}

		@Test
		void theJoinerMeetsTheOldestOfThoseWhoShareATopicWithIt() {
			RoomClaimsTests.this.claims.join("books", ADDRESS, List.of(3L), 2);
			RoomClaimsTests.this.clock.advance(Duration.ofSeconds(1));
			RoomClaimsTests.this.claims.join("films", ADDRESS, List.of(2L), 2);
			RoomClaimsTests.this.clock.advance(Duration.ofSeconds(1));

			TokenState.Matched matched = (TokenState.Matched) RoomClaimsTests.this.claims.join("a", ADDRESS,
					List.of(2L, 3L), 2);

			assertThat(matched.topicId()).isEqualTo(3);
			assertThat(claim("books")).isEqualTo(matched);
			assertThat(RoomClaimsTests.this.store.waitingIn(FILMS)).containsExactly("films");
		}

		@Test
		void aLeaveTakesTheClaimThenEveryEntry() {
			RoomClaimsTests.this.claims.join("a", ADDRESS, List.of(1L, 2L, 3L), 2);

			RoomClaimsTests.this.claims.leave("a");

			assertThat(claim("a")).isInstanceOf(TokenState.Idle.class);
			for (MatchQueue queue : List.of(MUSIC, FILMS, BOOKS)) {
				assertThat(RoomClaimsTests.this.store.waitingIn(queue)).isEmpty();
			}
		}

		@Test
		void aPollFormsInWhicheverOfItsQueuesHasAPartnerAndRepairsOnlyAWaitLostFromEveryQueue() {
			TokenState.Waiting a = (TokenState.Waiting) RoomClaimsTests.this.claims.join("a", ADDRESS, List.of(1L, 2L),
					2);
			RoomClaimsTests.this.store.removeEntry(MUSIC, a.entry("a"));
			RoomClaimsTests.this.clock.advance(RoomClaims.ORPHAN_GRACE);

			assertThat(poll("a")).as("still waiting in films").isEqualTo(a);

			RoomClaimsTests.this.store.removeEntry(FILMS, a.entry("a"));
			assertThat(poll("a")).as("lost from both").isInstanceOf(TokenState.Idle.class);

			RoomClaimsTests.this.claims.join("a", ADDRESS, List.of(1L, 2L), 2);
			RoomClaimsTests.this.store.addEntry(FILMS, new QueueEntry("b", "b-join", now()));
			RoomClaimsTests.this.store.set("b", new QueueEntry("b", "b-join", now()).waiting(FILMS));
			assertThat(poll("a")).isInstanceOfSatisfying(TokenState.Matched.class,
					(matched) -> assertThat(matched.topicId()).isEqualTo(2));
			assertThat(RoomClaimsTests.this.store.waitingIn(MUSIC)).isEmpty();
		}

	}

	@Nested
	class BeingWritten {

		@Test
		void aJoinIsRefused() {
			TokenState.Forming forming = beingWritten("a", "never-written");

			assertRefused(() -> RoomClaimsTests.this.claims.join("a", ADDRESS, PAIRS), JoinRefusals.ALREADY_JOINED);
			assertThat(claim("a")).isEqualTo(forming);
		}

		@Test
		void aPollPastTheGraceConfirmsTheRoomMySqlWrote() {
			TokenState.Matched room = formPair("a", "b");
			// a failover lost the confirmation
			TokenState.Forming forming = new TokenState.Forming(PAIRS, room.matchedAt(), room.roomId(), 2,
					room.matchedAt());
			RoomClaimsTests.this.store.set("a", forming);
			assertThat(poll("a")).as("its former may still be writing it").isEqualTo(forming);

			RoomClaimsTests.this.clock.advance(RoomClaims.ORPHAN_GRACE);

			assertThat(poll("a")).isEqualTo(room);
			assertThat(counter("kindling.matching.claims.recovered")).isOne();
		}

		@Test
		void aPollFindingNoRoomInMySqlSetsItIdleOnceThePendingTtlIsOver() {
			beingWritten("a", "never-written");
			RoomClaimsTests.this.clock.advance(RoomClaims.ORPHAN_GRACE);
			assertThat(poll("a")).isInstanceOf(TokenState.Forming.class);

			RoomClaimsTests.this.clock.advance(SETTINGS.roomPendingTtl().minus(RoomClaims.ORPHAN_GRACE));

			assertThat(poll("a")).isInstanceOf(TokenState.Idle.class);
		}

		@Test
		void aLeaveKeepsTheLeaverOutOfTheRoomWrittenAfterIt() {
			join("a", PAIRS);
			// a leaves once its claim moved into the room, before MySQL writes it
			RoomClaimsTests.this.ledger.duringNextWrite(() -> RoomClaimsTests.this.claims.leave("a"));

			RoomClaimsTests.this.claims.join("b", ADDRESS, PAIRS);

			assertThat(claim("a")).isInstanceOf(TokenState.Idle.class);
			assertThat(RoomClaimsTests.this.ledger.liveSeat("a", now())).isNull();
			assertThat(claim("b")).isInstanceOf(TokenState.Matched.class);
			assertThat(RoomClaimsTests.this.pushed).singleElement()
				.satisfies((room) -> assertThat(room.tokens()).containsExactly("b"));
		}

	}

	@Nested
	class InARoom {

		@Test
		void aJoinIsRefusedAndAPollChangesNothing() {
			TokenState.Matched room = formPair("a", "b");

			assertRefused(() -> RoomClaimsTests.this.claims.join("a", ADDRESS, THREES), JoinRefusals.ALREADY_JOINED);
			assertThat(poll("a")).isEqualTo(room);
		}

		@Test
		void aLeaveEndsTheSeatThenTheClaimAndTheLeaverMayJoinAgain() {
			formPair("a", "b");

			RoomClaimsTests.this.claims.leave("a");

			assertThat(RoomClaimsTests.this.ledger.liveSeat("a", now())).isNull();
			assertThat(RoomClaimsTests.this.ledger.liveSeat("b", now())).isNotNull();
			assertThat(claim("a")).isInstanceOf(TokenState.Idle.class);
			join("a", PAIRS);
			assertThat(RoomClaimsTests.this.claims.join("c", ADDRESS, PAIRS)).isInstanceOf(TokenState.Matched.class);
		}

		@Test
		void aLeaveTellsTheConversationAfterTheSeatEndsAndBeforeTheClaimGoesIdle() {
			TokenState.Matched room = formPair("a", "b");

			RoomClaimsTests.this.claims.leave("a");

			assertThat(RoomClaimsTests.this.told).singleElement().satisfies((told) -> {
				assertThat(told.left()).isEqualTo(new RoomLeft("a", room.roomId(), now()));
				assertThat(told.seat()).as("the seat ended first").isNull();
				assertThat(told.claim()).as("the claim still in the room").isEqualTo(room);
			});
			assertThat(claim("a")).isInstanceOf(TokenState.Idle.class);
		}

		@Test
		void aLeaveTheConversationFailsKeepsTheClaimAndIsDoneWholeAgain() {
			TokenState.Matched room = formPair("a", "b");
			RoomClaimsTests.this.onLeft = () -> {
				throw new DataAccessResourceFailureException("Redis is away");
			};

			assertThatExceptionOfType(DataAccessResourceFailureException.class)
				.isThrownBy(() -> RoomClaimsTests.this.claims.leave("a"));
			assertThat(RoomClaimsTests.this.ledger.liveSeat("a", now())).isNull();
			assertThat(claim("a")).isEqualTo(room);

			RoomClaimsTests.this.onLeft = () -> {
			};
			RoomClaimsTests.this.claims.leave("a");

			assertThat(RoomClaimsTests.this.told).hasSize(2)
				.allSatisfy((told) -> assertThat(told.left().roomId()).isEqualTo(room.roomId()));
			assertThat(claim("a")).isInstanceOf(TokenState.Idle.class);
		}

		@Test
		void aLeaveFromAQueueTellsNoConversation() {
			join("a", PAIRS);

			RoomClaimsTests.this.claims.leave("a");

			assertThat(RoomClaimsTests.this.told).isEmpty();
		}

		@Test
		void anEvictionLeavesTheRoomToTheChat() {
			TokenState.Matched room = formPair("a", "b");

			assertThat(RoomClaimsTests.this.claims.evict("a")).isFalse();

			assertThat(claim("a")).isEqualTo(room);
		}

		@Test
		void aLeaveWhileMySqlIsAwayFailsAndLeavesTheRoomAsItWas() {
			TokenState.Matched room = formPair("a", "b");
			RoomClaimsTests.this.ledger.away(true);

			// a room is left in MySQL first: a leave acknowledged is never undone
			assertThatExceptionOfType(DataAccessResourceFailureException.class)
				.isThrownBy(() -> RoomClaimsTests.this.claims.leave("a"));
			assertThat(claim("a")).isEqualTo(room);
			assertThat(RoomClaimsTests.this.told).as("not told before the seat ends").isEmpty();
		}

	}

	@Nested
	class AfterAFailover {

		@Test
		void aRoomMySqlRefusesTellsWhoeverSitsInALiveRoomItsRoomAndPutsTheOthersBack() {
			TokenState.Matched first = formPair("a", "b");
			// the promoted replica never heard of that room: a waits again, entry and all
			TokenState.Waiting again = new TokenState.Waiting(PAIRS, now(), "lost-join");
			RoomClaimsTests.this.store.set("a", again);
			RoomClaimsTests.this.store.addEntry(PAIRS, again.entry("a"));
			RoomClaimsTests.this.pushed.clear();
			RoomClaimsTests.this.clock.advance(Duration.ofSeconds(1));

			TokenState.Waiting c = (TokenState.Waiting) RoomClaimsTests.this.claims.join("c", ADDRESS, PAIRS);

			assertThat(claim("a")).isEqualTo(first);
			assertThat(RoomClaimsTests.this.pushed).singleElement()
				.satisfies((room) -> assertThat(room.tokens()).containsExactly("a"));
			assertThat(claim("c")).isEqualTo(c);
			assertThat(RoomClaimsTests.this.store.waitingIn(PAIRS)).containsExactly("c");
			assertThat(RoomClaimsTests.this.ledger.written()).hasSize(1);
		}

		@Test
		void aClaimAFailoverTookBackToItsWaitWhileMySqlWroteTheRoomIsToldTheRoom() {
			TokenState.Waiting a = join("a", PAIRS);
			// while the room is written, the promoted replica has a waiting again (its
			// entry back in the queue) and has never heard of b
			RoomClaimsTests.this.ledger.duringNextWrite(() -> {
				RoomClaimsTests.this.store.set("a", a);
				RoomClaimsTests.this.store.addEntry(PAIRS, a.entry("a"));
				RoomClaimsTests.this.store.set("b", new TokenState.Idle());
			});

			join("b", PAIRS);

			TokenState.Matched room = (TokenState.Matched) claim("a");
			assertThat(RoomClaimsTests.this.store.waitingIn(PAIRS)).isEmpty();
			assertThat(claim("b")).as("lost altogether: its next poll finds the room")
				.isInstanceOf(TokenState.Idle.class);
			assertThat(poll("b")).isEqualTo(room);
			assertThat(RoomClaimsTests.this.ledger.liveSeat("b", now())).isEqualTo(room.roomId());
		}

		@Test
		void aLeaveFromTheWaitAFailoverBroughtBackEndsTheRoomMySqlSeatsItIn() {
			TokenState.Matched room = formPair("a", "b");
			TokenState.Waiting again = new TokenState.Waiting(PAIRS, room.matchedAt(), "lost-join");
			RoomClaimsTests.this.store.set("a", again);
			RoomClaimsTests.this.store.addEntry(PAIRS, again.entry("a"));

			RoomClaimsTests.this.claims.leave("a");

			assertThat(RoomClaimsTests.this.ledger.liveSeat("a", now())).isNull();
			assertThat(poll("a")).isInstanceOf(TokenState.Idle.class);
			assertThat(RoomClaimsTests.this.store.waitingIn(PAIRS)).isEmpty();
		}

	}

	@Nested
	class Backfill {

		/** A room of three: a, b and c, a second apart. */
		TokenState.Matched roomOfThree() {
			for (String token : List.of("a", "b", "c")) {
				RoomClaimsTests.this.claims.join(token, ADDRESS, THREES);
				RoomClaimsTests.this.clock.advance(Duration.ofSeconds(1));
			}
			return (TokenState.Matched) claim("a");
		}

		@Test
		void aLeaveWithinTheWindowReopensTheSeatForTheNextSingleJoinerWhoIsToldBackfilled() {
			TokenState.Matched room = roomOfThree();
			RoomClaimsTests.this.claims.leave("a");
			assertThat(RoomClaimsTests.this.store.offerOf(room.roomId())).isEqualTo("open");
			RoomClaimsTests.this.clock.advance(Duration.ofSeconds(30));

			TokenState.Matched seated = (TokenState.Matched) RoomClaimsTests.this.claims.join("d", ADDRESS, THREES);

			assertThat(seated).isEqualTo(new TokenState.Matched(room.roomId(), room.conversationId(), 3,
					THREES.topicId(), now(), false, true));
			assertThat(claim("d")).isEqualTo(seated);
			assertThat(RoomClaimsTests.this.store.expiryOf("d")).hasValue(room.matchedAt().plus(SETTINGS.roomTtl()));
			assertThat(RoomClaimsTests.this.ledger.liveSeat("d", now())).isEqualTo(room.roomId());
			assertThat(RoomClaimsTests.this.store.waitingIn(THREES)).as("never queued").isEmpty();
			assertThat(RoomClaimsTests.this.backfilled).singleElement()
				.isEqualTo(
						new RoomBackfilled(room.roomId(), room.conversationId(), 3, THREES.topicId(), "d", now(), 3));
			assertThat(RoomClaimsTests.this.store.offerOf(room.roomId())).isEqualTo("taken");
		}

		@Test
		void aNewcomerWhoseClaimACrashLeftBeingWrittenIsRestoredFromMySqlStillBackfilled() {
			TokenState.Matched room = roomOfThree();
			TokenState.Matched bens = (TokenState.Matched) claim("b");
			RoomClaimsTests.this.claims.leave("a");
			RoomClaimsTests.this.clock.advance(Duration.ofSeconds(30));
			Instant joinedAt = now();
			TokenState.Matched seated = (TokenState.Matched) RoomClaimsTests.this.claims.join("d", ADDRESS, THREES);
			// the process died between MySQL's transaction and the claim's confirmation
			TokenState.Forming beingWritten = new TokenState.Forming(THREES, seated.matchedAt(), room.roomId(), 3,
					seated.matchedAt());
			RoomClaimsTests.this.store.set("d", beingWritten);
			assertThat(poll("d")).as("its seating may still be going on").isEqualTo(beingWritten);
			RoomClaimsTests.this.clock.advance(RoomClaims.ORPHAN_GRACE);

			assertThat(poll("d")).isEqualTo(seated);
			assertThat(seated.backfilled()).isTrue();
			assertThat(seated.matchedAt()).as("when it was seated, not when the room formed")
				.isEqualTo(joinedAt)
				.isAfter(room.matchedAt());
			RoomBackfilled told = new RoomBackfilled(room.roomId(), room.conversationId(), 3, THREES.topicId(), "d",
					joinedAt, 3);
			assertThat(RoomClaimsTests.this.backfilled)
				.as("told by the join, and again by the restore: it may not " + "have been")
				.containsExactly(told, told);
			// a failover lost both claims: each is restored as it was, only the newcomer
			// backfilled, and only the newcomer's restore tells the room
			RoomClaimsTests.this.store.set("d", new TokenState.Idle());
			RoomClaimsTests.this.store.set("b", new TokenState.Idle());
			assertThat(poll("d")).isEqualTo(seated);
			assertThat(poll("b")).isEqualTo(bens);
			assertThat(counter("kindling.matching.claims.recovered")).isEqualTo(3);
			assertThat(RoomClaimsTests.this.backfilled).containsExactly(told, told, told);
		}

		@Test
		void aLeaveAtTheEndOfTheWindowReopensNothing() {
			TokenState.Matched room = roomOfThree();
			RoomClaimsTests.this.clock.advance(SETTINGS.backfillWindow());

			RoomClaimsTests.this.claims.leave("a");

			assertThat(RoomClaimsTests.this.store.offerOf(room.roomId())).isEqualTo("none");
			assertThat(RoomClaimsTests.this.claims.join("d", ADDRESS, THREES)).isInstanceOf(TokenState.Waiting.class);
		}

		@Test
		void aRoomIsBackfilledOnceAndTheNewcomersLeaveReopensNothing() {
			TokenState.Matched room = roomOfThree();
			RoomClaimsTests.this.claims.leave("a");
			RoomClaimsTests.this.claims.join("d", ADDRESS, THREES);

			RoomClaimsTests.this.claims.leave("b");
			RoomClaimsTests.this.claims.leave("d");

			assertThat(RoomClaimsTests.this.claims.join("e", ADDRESS, THREES)).isInstanceOf(TokenState.Waiting.class);
			assertThat(RoomClaimsTests.this.ledger.liveSeat("c", now())).isEqualTo(room.roomId());
		}

		@Test
		void theLastLeaveTakesTheOpenSeatBack() {
			TokenState.Matched room = roomOfThree();
			for (String token : List.of("a", "b", "c")) {
				RoomClaimsTests.this.claims.leave(token);
			}

			assertThat(RoomClaimsTests.this.store.offerOf(room.roomId())).isEqualTo("withdrawn");
			assertThat(RoomClaimsTests.this.claims.join("d", ADDRESS, THREES)).isInstanceOf(TokenState.Waiting.class);
		}

		@Test
		void theOneWhoLeftIsNotSeatedAgain() {
			roomOfThree();
			RoomClaimsTests.this.claims.leave("a");

			assertThat(RoomClaimsTests.this.claims.join("a", ADDRESS, THREES)).isInstanceOf(TokenState.Waiting.class);
		}

		@Test
		void aSeatMySqlCannotWriteLeavesTheJoinerWaitingInItsQueue() {
			TokenState.Matched room = roomOfThree();
			RoomClaimsTests.this.claims.leave("a");
			// the room was backfilled already: a failover lost the seat's mark in Redis
			RoomClaimsTests.this.ledger.backfill(new OpenSeat(room.roomId(), room.conversationId(), THREES, List.of()),
					new QueueEntry("x", "x-join", now()), now());

			TokenState.Waiting waiting = (TokenState.Waiting) RoomClaimsTests.this.claims.join("d", ADDRESS, THREES);

			assertThat(claim("d")).isEqualTo(waiting);
			assertThat(RoomClaimsTests.this.store.waitingIn(THREES)).containsExactly("d");
			assertThat(RoomClaimsTests.this.backfilled).isEmpty();
		}

		@Test
		void aRoomOfTwoIsNeverBackfilled() {
			TokenState.Matched room = formPair("a", "b");
			RoomClaimsTests.this.claims.leave("a");

			assertThat(RoomClaimsTests.this.store.offerOf(room.roomId())).isEqualTo("none");
		}

	}

	// --- helpers

	void publish(Object event) {
		switch (event) {
			case RoomFormed formed -> this.pushed.add(formed);
			case RoomBackfilled seated -> this.backfilled.add(seated);
			case RoomLeft left -> {
				this.told.add(new Told(left, this.ledger.liveSeat(left.token(), left.at()), claim(left.token())));
				this.onLeft.run();
			}
			default -> throw new IllegalArgumentException("Unexpected event " + event);
		}
	}

	/**
	 * A leave the conversation was told, the seat MySQL had for its token then and its
	 * claim then.
	 */
	record Told(RoomLeft left, @Nullable String seat, TokenState claim) {
	}
	// ------------------------------------------------------------------------

	TokenState.Waiting join(String token, MatchQueue queue) {
		return (TokenState.Waiting) this.claims.join(token, ADDRESS, queue);
	}

	/** Two who join a queue of two one after the other, in their room. */
	TokenState.Matched formPair(String first, String second) {
		join(first, PAIRS);
		return (TokenState.Matched) this.claims.join(second, ADDRESS, PAIRS);
	}

	TokenState.Forming beingWritten(String token, String roomId) {
		TokenState.Forming forming = new TokenState.Forming(PAIRS, now(), roomId, 2, now());
		this.store.set(token, forming);
		return forming;
	}

	TokenState poll(String token) {
		return this.claims.poll(token, ADDRESS);
	}

	TokenState claim(String token) {
		return this.store.read(token);
	}

	Instant now() {
		return this.clock.instant();
	}

	double counter(String name) {
		return this.meters.find(name).counters().stream().mapToDouble((counter) -> counter.count()).sum();
	}

	static void assertRefused(ThrowingCallable join, Refusal refusal) {
		assertThatExceptionOfType(Refused.class).isThrownBy(join)
			.satisfies((refused) -> assertThat(refused.refusal()).isEqualTo(refusal));
	}

	/** The ban list in memory; a ban can be made to bite only after some questions. */
	static final class Bans implements BanList {

		final Set<String> sessions = new HashSet<>();

		final Set<String> addresses = new HashSet<>();

		int bitesAfterQuestions;

		@Override
		public boolean isBanned(String sessionKey, String address) {
			return bites() && (this.sessions.contains(sessionKey) || this.addresses.contains(address));
		}

		@Override
		public boolean isAddressBanned(String address) {
			return bites() && this.addresses.contains(address);
		}

		private boolean bites() {
			return this.bitesAfterQuestions-- <= 0;
		}

	}

	final class Topics implements TopicCatalogue {

		@Override
		public boolean isActive(long topicId) {
			return !RoomClaimsTests.this.retired.contains(topicId);
		}

		@Override
		public List<Topic> activeTopics() {
			return List.of();
		}

	}

}
