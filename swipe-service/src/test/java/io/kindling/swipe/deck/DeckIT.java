package io.kindling.swipe.deck;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

import io.kindling.infra.http.Request;
import io.kindling.infra.http.Response;
import io.kindling.swipe.deck.DeckTestSupport.Person;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class DeckIT extends DeckTestSupport {

	@Autowired
	Desirability scores;

	@Autowired
	DeckStore decks;

	@Test
	void nobodySwipedAppearsAgainAndTheViewerNever() {
		double[] at = place(48.85, 2.35);
		long viewer = 7_100_000;
		save(Person.woman(viewer, at[0], at[1]));
		List<Long> men = LongStream.rangeClosed(viewer + 1, viewer + 30).boxed().toList();
		men.forEach((id) -> save(Person.man(id, at[0] + (id % 7) * 0.001, at[1])));
		List<Long> swiped = men.subList(0, 10);
		swiped.forEach((id) -> swipe(viewer, id, (id % 2 == 0) ? "LIKE" : "PASS"));

		List<Long> shown = ids(page(viewer, 100));

		assertThat(shown).doesNotContain(viewer).doesNotContainAnyElementsOf(swiped);
		assertThat(shown).containsExactlyInAnyOrderElementsOf(men.subList(10, 30));

		// swiped while the deck is stored: the next page still never shows them
		forgetDeck(viewer);
		List<Long> firstPage = ids(page(viewer, 5));
		List<Long> swipedNow = men.subList(10, 30).stream().filter((id) -> !firstPage.contains(id)).limit(5).toList();
		swipedNow.forEach((id) -> swipe(viewer, id, "PASS"));
		List<Long> rest = ids(page(viewer, 100));
		assertThat(rest).doesNotContainAnyElementsOf(swipedNow)
			.doesNotContainAnyElementsOf(swiped)
			.doesNotContain(viewer);
	}

	@Test
	void theNextDeckIsAssembledInTheBackgroundBeforeTheCurrentOneRunsOut() {
		double[] at = place(60.17, 24.94);
		long viewer = 7_950_000;
		save(Person.woman(viewer, at[0], at[1]));
		List<Long> men = LongStream.rangeClosed(viewer + 1, viewer + 300).boxed().toList();
		men.forEach((id) -> save(Person.man(id, at[0] + (id % 11) * 0.001, at[1])));

		// assembles 200 and shows 100: 100 left, not yet below refill-below (100)
		List<Long> shown = new ArrayList<>(ids(page(viewer, 100)));
		assertThat(this.redis.opsForList().size("deck:{" + viewer + "}")).isEqualTo(100);
		shown.forEach((id) -> swipe(viewer, id, "PASS"));
		// leaves none: the next deck is assembled in the background, without the page
		// just shown (not swiped yet) and the swiped
		shown.addAll(ids(page(viewer, 100)));
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.redis.opsForList().size("deck:{" + viewer + "}"), (left) -> left != null && left > 0);

		List<Long> third = ids(page(viewer, 100));
		assertThat(shown).doesNotHaveDuplicates().hasSize(200);
		assertThat(third).hasSize(100).doesNotContainAnyElementsOf(shown);
		assertThat(third)
			.containsExactlyInAnyOrderElementsOf(men.stream().filter((id) -> !shown.contains(id)).toList());
	}

	@Test
	void aRefillBegunBeforeTheDeckWasDiscardedIsDropped() {
		long viewer = 7_960_000;
		DeckStore.Taken before = this.decks.take(viewer, 1);
		assertThat(this.decks.claimRefill(viewer)).isTrue();
		assertThat(this.decks.claimRefill(viewer)).as("one refill at a time").isFalse();
		this.decks.discard(viewer, Duration.ofMinutes(1));
		DeckEntry card = DeckEntry.of(new Card(viewer + 1, "late", 30, 1, false, false, false));
		assertThat(this.decks.append(viewer, before.generation(), List.of(card), Duration.ofMinutes(1))).isFalse();
		assertThat(this.redis.hasKey("deck:{" + viewer + "}")).isFalse();
		// the lease ended with the dropped refill; one begun now appends
		assertThat(this.decks.claimRefill(viewer)).isTrue();
		DeckStore.Taken now = this.decks.take(viewer, 1);
		assertThat(this.decks.append(viewer, now.generation(), List.of(card), Duration.ofMinutes(1))).isTrue();
		assertThat(this.decks.remainingIds(viewer)).containsExactly(viewer + 1);
	}

	@Test
	void swipesMadeThroughTheSwipeApiLeaveTheDeckAndARewindBringsThePersonBack() {
		double[] at = place(35.68, 139.69);
		long viewer = 7_050_000;
		save(Person.woman(viewer, at[0], at[1]));
		List<Long> men = LongStream.rangeClosed(viewer + 1, viewer + 8).boxed().toList();
		men.forEach((id) -> save(Person.man(id, at[0], at[1])));
		long superLiker = men.get(7);

		assertThat(swipeOverHttp(viewer, men.get(0), "LIKE")).isEqualTo(HttpStatus.OK);
		assertThat(swipeOverHttp(viewer, men.get(1), "PASS")).isEqualTo(HttpStatus.OK);
		assertThat(swipeOverHttp(superLiker, viewer, "SUPER_LIKE")).isEqualTo(HttpStatus.OK);

		List<JsonNode> cards = page(viewer, 100);
		assertThat(ids(cards)).doesNotContain(men.get(0), men.get(1), viewer).hasSize(6);
		assertThat(ids(cards).get(0)).isEqualTo(superLiker);
		assertThat(cards.get(0).get("super_liked_you").asBoolean()).isTrue();

		Response rewound = client().send("DELETE", "/api/swipes/last", token(viewer), null);
		assertThat(rewound.status()).isEqualTo(HttpStatus.NO_CONTENT.value());
		assertThat(ids(page(viewer, 100))).contains(men.get(1)).doesNotContain(men.get(0));
	}

	@Test
	void aSuperLikeTheViewerAnsweredIsConsumedWhenHerNextDeckIsBuilt() {
		double[] at = place(48.21, 16.37);
		long viewer = 7_060_000;
		save(Person.woman(viewer, at[0], at[1]));
		long answered = viewer + 1;
		long waiting = viewer + 2;
		save(Person.man(answered, at[0], at[1]));
		save(Person.man(waiting, at[0], at[1]));
		assertThat(swipeOverHttp(answered, viewer, "SUPER_LIKE")).isEqualTo(HttpStatus.OK);
		assertThat(swipeOverHttp(waiting, viewer, "SUPER_LIKE")).isEqualTo(HttpStatus.OK);
		assertThat(swipeOverHttp(viewer, answered, "PASS")).isEqualTo(HttpStatus.OK);

		forgetDeck(viewer);
		List<JsonNode> cards = page(viewer, 100);

		assertThat(ids(cards)).containsExactly(waiting);
		assertThat(cards.get(0).get("super_liked_you").asBoolean()).isTrue();
		assertThat(this.redis.opsForZSet().range("super_likes:{" + viewer + "}", 0, -1))
			.containsExactly(String.valueOf(waiting));
	}

	private HttpStatus swipeOverHttp(long userId, long targetId, String action) {
		return HttpStatus.valueOf(
				client()
					.send(Request.of("POST", "/api/swipes")
						.bearer(token(userId))
						.header("Idempotency-Key", java.util.UUID.randomUUID().toString())
						.json("{\"target_user_id\": " + targetId + ", \"action\": \"" + action + "\"}"))
					.status());
	}

	@Test
	void aBlockHidesBothPeopleFromEachOthersDecksEvenFromADeckBuiltBefore() {
		double[] at = place(52.37, 4.90);
		long viewer = 7_970_000;
		save(Person.woman(viewer, at[0], at[1]));
		List<Long> men = LongStream.rangeClosed(viewer + 1, viewer + 6).boxed().toList();
		men.forEach((id) -> save(Person.man(id, at[0], at[1])));
		long blockedByHer = men.get(0);
		long blockingHer = men.get(1);
		long superLiker = men.get(2);
		assertThat(swipeOverHttp(superLiker, viewer, "SUPER_LIKE")).isEqualTo(HttpStatus.OK);
		// her deck is built before the blocks
		assertThat(ids(page(viewer, 1))).containsExactly(superLiker);

		assertThat(postJson(viewer, "/api/blocks", "{\"user_id\": " + blockedByHer + "}").status())
			.isEqualTo(HttpStatus.CREATED.value());
		assertThat(postJson(blockingHer, "/api/blocks", "{\"user_id\": " + viewer + "}").status())
			.isEqualTo(HttpStatus.CREATED.value());
		assertThat(postJson(viewer, "/api/blocks", "{\"user_id\": " + superLiker + "}").status())
			.isEqualTo(HttpStatus.CREATED.value());

		assertThat(ids(page(viewer, 100))).containsExactlyInAnyOrderElementsOf(men.subList(3, 6));
		forgetDeck(viewer);
		List<JsonNode> rebuilt = page(viewer, 100);
		assertThat(ids(rebuilt)).containsExactlyInAnyOrderElementsOf(men.subList(3, 6));
		assertThat(rebuilt).noneMatch((card) -> card.get("super_liked_you").asBoolean());
		for (long man : List.of(blockedByHer, blockingHer, superLiker)) {
			assertThat(ids(page(man, 100))).doesNotContain(viewer);
		}
		assertThat(ids(page(men.get(3), 100))).contains(viewer);
	}

	@Test
	void preferencesAreHonouredBothWays() {
		double[] at = place(52.52, 13.40);
		long viewer = 7_200_000;
		// a 30-year-old woman looking for men aged 25-35 within 20 km
		save(Person.woman(viewer, at[0], at[1]).maxDistance(20));
		Person base = Person.man(0, at[0], at[1]);
		List<Long> suitable = List.of(viewer + 1, viewer + 2);
		save(copy(base, viewer + 1));
		save(copy(base, viewer + 2).age(34).interestedIn("WOMAN,NONBINARY"));
		save(copy(base, viewer + 3).interestedIn("MAN")); // not into women
		save(new Person(viewer + 4, "WOMAN", "WOMAN,MAN", 30, at[0], at[1], 25, 35, 50, 1000)); // she
																								// wants
																								// men
		save(copy(base, viewer + 5).age(40)); // too old for her
		save(copy(base, viewer + 6).ages(18, 25)); // she is too old for him
		save(copy(base, viewer + 7).at(at[0] + 0.27, at[1])); // ~30 km: beyond her 20 km
		save(copy(base, viewer + 8).at(at[0] + 0.09, at[1]).maxDistance(5)); // ~10 km:
																				// beyond
																				// his 5
																				// km
		save(new Person(viewer + 9, "NONBINARY", "WOMAN", 30, at[0], at[1], 25, 35, 50, 1000)); // not
																								// her
																								// choice

		List<JsonNode> cards = page(viewer, 100);

		assertThat(ids(cards)).containsExactlyInAnyOrderElementsOf(suitable);
		JsonNode card = cards.stream().filter((c) -> c.get("user_id").asLong() == viewer + 2).findFirst().orElseThrow();
		assertThat(card.get("age").asInt()).isEqualTo(34);
		assertThat(card.get("distance_km").asLong()).isEqualTo(1);
		assertThat(card.get("display_name").asString()).isEqualTo("Person " + (viewer + 2));
		assertThat(card.has("lat")).isFalse();
	}

	@Test
	void activeSuperLikersComeFirstMarkedAsSuchUntilTheirSuperLikeExpires() {
		double[] at = place(40.42, -3.70);
		long viewer = 7_300_000;
		save(Person.woman(viewer, at[0], at[1]));
		LongStream.rangeClosed(viewer + 1, viewer + 20)
			.forEach((id) -> save(Person.man(id, at[0], at[1]).desirability(1500)));
		// the least desirable two super-like her
		long first = viewer + 21;
		long second = viewer + 22;
		save(Person.man(first, at[0], at[1]).desirability(600));
		save(Person.man(second, at[0], at[1]).desirability(500));
		page(viewer, 1); // her deck exists before the super likes arrive
		swipe(first, viewer, "SUPER_LIKE");
		this.clock.advance(Duration.ofHours(1));
		swipe(second, viewer, "SUPER_LIKE");

		List<JsonNode> cards = page(viewer, 100);

		assertThat(ids(cards.subList(0, 2))).containsExactly(first, second);
		assertThat(cards.subList(0, 2)).allMatch((card) -> card.get("super_liked_you").asBoolean());
		assertThat(cards.subList(2, cards.size())).noneMatch((card) -> card.get("super_liked_you").asBoolean());

		// 24 h after the first super like, only the second is still active
		this.clock.advance(Duration.ofHours(23).plusMinutes(1));
		forgetDeck(viewer);
		cards = page(viewer, 100);
		assertThat(ids(cards).get(0)).isEqualTo(second);
		assertThat(cards.get(0).get("super_liked_you").asBoolean()).isTrue();
		JsonNode expired = cards.stream().filter((c) -> c.get("user_id").asLong() == first).findFirst().orElseThrow();
		assertThat(expired.get("super_liked_you").asBoolean()).isFalse();
		assertThat(ids(cards).indexOf(first)).isGreaterThan(20);
	}

	@Test
	void aboutOneBoostedPerFiveOrganicAndAtMostTwoPerTwoHundredCardDeck() {
		double[] at = place(41.90, 12.50);
		long viewer = 7_400_000;
		save(Person.woman(viewer, at[0], at[1]));
		LongStream.rangeClosed(viewer + 1, viewer + 260)
			.forEach((id) -> save(Person.man(id, at[0] + (id % 10) * 0.001, at[1])));
		List<Long> boosters = LongStream.rangeClosed(viewer + 301, viewer + 305).boxed().toList();
		boosters.forEach((id) -> {
			save(Person.man(id, at[0], at[1]).desirability(100));
			assertThat(post(id, "/api/boosts").status()).isEqualTo(HttpStatus.CREATED.value());
		});

		List<JsonNode> deck = new ArrayList<>(page(viewer, 100));
		deck.addAll(page(viewer, 100));

		assertThat(deck).hasSize(200);
		List<Integer> boostedAt = IntStream.range(0, deck.size())
			.filter((i) -> deck.get(i).get("boosted").asBoolean())
			.boxed()
			.toList();
		// five organic cards, a boosted one, five organic, a boosted one: then none
		assertThat(boostedAt).containsExactly(5, 11);
		assertThat(boostedAt.stream().map((i) -> deck.get(i).get("user_id").asLong())).allMatch(boosters::contains);
		assertThat(new HashSet<>(ids(deck))).hasSize(200);
	}

	@Test
	void oneBoostAtATimeAndOnePerTwelveHours() {
		double[] at = place(59.33, 18.07);
		long user = 7_500_000;
		save(Person.woman(user, at[0], at[1]));

		Response started = post(user, "/api/boosts");
		assertThat(started.status()).isEqualTo(HttpStatus.CREATED.value());
		assertThat(this.json.readTree(started.body()).get("expires_at").asString())
			.isEqualTo(this.clock.instant().plus(Duration.ofMinutes(30)).toString());

		Response stacked = post(user, "/api/boosts");
		assertThat(stacked.status()).isEqualTo(HttpStatus.CONFLICT.value());
		assertThat(stacked.header("Content-Type")).hasValue("application/problem+json");

		this.clock.advance(Duration.ofMinutes(31));
		Response cooling = post(user, "/api/boosts");
		assertThat(cooling.status()).isEqualTo(HttpStatus.TOO_MANY_REQUESTS.value());
		long retryAfter = Long.parseLong(cooling.header(HttpHeaders.RETRY_AFTER).orElseThrow());
		assertThat(retryAfter).isEqualTo(Duration.ofHours(12).minusMinutes(31).toSeconds());

		this.clock.advance(Duration.ofHours(12).minusMinutes(31));
		assertThat(post(user, "/api/boosts").status()).isEqualTo(HttpStatus.CREATED.value());
	}

	@Test
	void manyBoostsInOneCellShareTheViewsEvenly() {
		double[] at = place(50.08, 14.43);
		long base = 7_600_000;
		List<Long> boosters = LongStream.rangeClosed(base + 1, base + 20).boxed().toList();
		boosters.forEach((id) -> {
			save(Person.man(id, at[0], at[1]));
			assertThat(post(id, "/api/boosts").status()).isEqualTo(HttpStatus.CREATED.value());
		});
		LongStream.rangeClosed(base + 101, base + 110).forEach((id) -> save(Person.man(id, at[0], at[1])));
		List<Long> viewers = LongStream.rangeClosed(base + 1001, base + 1060).boxed().toList();
		viewers.forEach((id) -> save(Person.woman(id, at[0], at[1])));

		List<Long> views = new ArrayList<>(java.util.Collections.nCopies(boosters.size(), 0L));
		for (long viewer : viewers) {
			for (JsonNode card : page(viewer, 100)) {
				if (card.get("boosted").asBoolean()) {
					int index = boosters.indexOf(card.get("user_id").asLong());
					views.set(index, views.get(index) + 1);
				}
			}
		}

		// 60 decks x 2 slots = 120 boosted views over 20 boosts: 6 each
		System.out.println("boosted views per boosted user: " + views);
		assertThat(views.stream().mapToLong(Long::longValue).sum()).isEqualTo(120);
		assertThat(views).allMatch((count) -> count == 6);
	}

	@Test
	void aFlushedFilterIsRebuiltFromSwipeHistoryAndARewoundPersonComesBack() {
		double[] at = place(45.46, 9.19);
		long viewer = 7_700_000;
		save(Person.woman(viewer, at[0], at[1]));
		List<Long> men = LongStream.rangeClosed(viewer + 1, viewer + 12).boxed().toList();
		men.forEach((id) -> save(Person.man(id, at[0], at[1])));
		List<Long> swiped = men.subList(0, 6);
		swiped.forEach((id) -> swipe(viewer, id, "PASS"));
		assertThat(ids(page(viewer, 100))).doesNotContainAnyElementsOf(swiped);
		// that page emptied the deck: its background refill reads the filter too
		awaitNoRefill(viewer);

		this.redis.execute((org.springframework.data.redis.core.RedisCallback<Object>) (connection) -> {
			connection.serverCommands().flushAll();
			return null;
		});
		assertThat(this.redis.hasKey("swiped_bf:{" + viewer + "}:count")).isFalse();

		List<Long> afterFlush = ids(page(viewer, 100));
		assertThat(afterFlush).doesNotContainAnyElementsOf(swiped)
			.containsExactlyInAnyOrderElementsOf(men.subList(6, 12));
		assertThat(this.redis.opsForValue().get("swiped_bf:{" + viewer + "}:count")).isEqualTo("6");

		long rewound = swiped.get(5);
		rewind(viewer, rewound, "PASS");
		List<Long> afterRewind = ids(page(viewer, 100));
		assertThat(afterRewind).contains(rewound).doesNotContainAnyElementsOf(swiped.subList(0, 5));
	}

	@Test
	void aLikeRaisesTheTargetsDesirabilityAndAPassLowersIt() {
		double[] at = place(38.72, -9.14);
		long liked = 7_800_001;
		long passed = 7_800_002;
		long swiper = 7_800_003;
		save(Person.man(liked, at[0], at[1]));
		save(Person.man(passed, at[0], at[1]));
		save(Person.woman(swiper, at[0], at[1]));

		swipe(swiper, liked, "LIKE");
		swipe(swiper, passed, "PASS");
		this.scores.flush();

		assertThat(desirability(liked)).isCloseTo(1008.0, org.assertj.core.data.Offset.offset(1e-6));
		assertThat(desirability(passed)).isCloseTo(992.0, org.assertj.core.data.Offset.offset(1e-6));
	}

	@Test
	void gamesOfOneTargetInOneBatchAddUpAgainstTheRatingsAtTheBatchsStart() {
		double[] at = place(38.72, -9.14);
		long target = 7_800_011;
		long first = 7_800_012;
		long second = 7_800_013;
		save(Person.man(target, at[0], at[1]));
		save(Person.woman(first, at[0], at[1]));
		save(Person.woman(second, at[0], at[1]));

		swipe(first, target, "LIKE");
		swipe(second, target, "LIKE");
		this.scores.flush();

		// Both games scored at 1000 against 1000 (one rating period): +8 each.
		assertThat(desirability(target)).isCloseTo(1016.0, org.assertj.core.data.Offset.offset(1e-6));
		assertThat(desirability(first)).isCloseTo(1000.0, org.assertj.core.data.Offset.offset(1e-6));
	}

	@Test
	void aPageLimitOutsideOneToAHundredIsABadRequest() {
		long viewer = 7_900_000;
		assertThat(get(viewer, "/api/deck?limit=0").status()).isEqualTo(HttpStatus.BAD_REQUEST.value());
		assertThat(get(viewer, "/api/deck?limit=101").status()).isEqualTo(HttpStatus.BAD_REQUEST.value());
		assertThat(get(viewer, "/api/deck?limit=abc").status()).isEqualTo(HttpStatus.BAD_REQUEST.value());
		assertThat(get(viewer, "/api/deck").status()).isEqualTo(HttpStatus.NOT_FOUND.value());
		assertThat(client().get("/api/deck", null).status()).isEqualTo(HttpStatus.UNAUTHORIZED.value());
	}

	private double desirability(long userId) {
		return this.jdbc.sql("SELECT desirability FROM profiles WHERE user_id = :id")
			.param("id", userId)
			.query(Double.class)
			.single();
	}

	private static Person copy(Person person, long id) {
		return new Person(id, person.gender(), person.interestedIn(), person.age(), person.lat(), person.lon(),
				person.ageMin(), person.ageMax(), person.maxDistanceKm(), person.desirability());
	}

}
