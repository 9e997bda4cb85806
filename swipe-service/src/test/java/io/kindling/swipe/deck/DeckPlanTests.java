package io.kindling.swipe.deck;

import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

import io.kindling.swipe.geo.Geohash;
import io.kindling.swipe.geo.GridProperties;
import io.kindling.swipe.geo.LocationGrid;
import io.kindling.swipe.profile.Gender;
import io.kindling.swipe.profile.Profile;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Deck planning with no servers: given what was read, which entries the deck holds, in
 * which order and how marked.
 */
class DeckPlanTests {

	static final LocalDate TODAY = LocalDate.parse("2026-06-01");

	/** Oslo; one degree of latitude north is about 111 km. */
	static final double LAT = 59.91;

	static final double LON = 10.75;

	static final DeckPlan.Rules RULES = new DeckPlan.Rules(200, 5, 2, 500, new LocationGrid(new GridProperties(1.0)));

	static final long VIEWER = 1;

	static Profile viewer(boolean expandWhenOut) {
		// a woman of 30 looking for men of 25 to 35 within 50 km
		return new Profile(VIEWER, "Viewer", Gender.WOMAN, Set.of(Gender.MAN), TODAY.minusYears(30).minusMonths(6), LAT,
				LON, Geohash.encode(LAT, LON, 9), 25, 35, 50, expandWhenOut, 1000, Instant.EPOCH, Instant.EPOCH,
				Instant.EPOCH);
	}

	/** A man of {@code age} about {@code km} north of the viewer, who would pick her. */
	static Candidate man(long id, int age, double km) {
		return new Candidate(id, "Man " + id, Gender.MAN, Set.of(Gender.WOMAN), TODAY.minusYears(age).minusMonths(6),
				LAT + km / 111.2, LON, 18, 99, 20_000);
	}

	static List<Candidate> men(long firstId, int count, int age, double km) {
		return IntStream.range(0, count).mapToObj((i) -> man(firstId + i, age, km)).toList();
	}

	static Inputs inputs(boolean expandWhenOut) {
		return new Inputs(viewer(expandWhenOut));
	}

	/** A builder of the plan's inputs: every list empty until a test fills it. */
	static final class Inputs {

		final Profile viewer;

		List<Long> superLikerIds = List.of();

		List<Candidate> superLikers = List.of();

		List<Candidate> ranked = List.of();

		List<Candidate> beyond = List.of();

		List<Candidate> boosted = List.of();

		Set<Long> hidden = Set.of();

		Set<Long> waiting = Set.of();

		Inputs(Profile viewer) {
			this.viewer = viewer;
		}

		DeckPlan.Plan plan() {
			return DeckPlan.plan(new DeckPlan.Inputs(this.viewer, TODAY, this.superLikerIds, this.superLikers,
					this.ranked, this.beyond, this.boosted, this.hidden, this.waiting), RULES);
		}

	}

	static List<Card> cards(DeckPlan.Plan plan) {
		return plan.entries().stream().filter((entry) -> !entry.isSlot()).map(DeckEntry::card).toList();
	}

	static List<Long> ids(DeckPlan.Plan plan) {
		return cards(plan).stream().map(Card::userId).toList();
	}

	@Test
	void superLikersComeFirstThenTheRankedPoolWithABoostSlotAfterEveryFiveAndAtMostTwo() {
		Inputs in = inputs(false);
		in.superLikerIds = List.of(900L, 901L);
		in.superLikers = List.of(man(900, 30, 1), man(901, 30, 1));
		in.ranked = men(100, 300, 30, 2);
		in.boosted = men(500, 6, 30, 3);

		DeckPlan.Plan plan = in.plan();

		assertThat(plan.entries()).hasSize(200);
		assertThat(cards(plan).subList(0, 2)).allMatch(Card::superLikedYou)
			.extracting(Card::userId)
			.containsExactly(900L, 901L);
		List<Integer> slotsAt = IntStream.range(0, plan.entries().size())
			.filter((i) -> plan.entries().get(i).isSlot())
			.boxed()
			.toList();
		assertThat(slotsAt).containsExactly(7, 13);
		// a slot holds every boost the viewer may see; the pick is made when it is served
		assertThat(plan.entries().get(7).boostCandidates()).extracting(Card::userId)
			.containsExactlyInAnyOrder(500L, 501L, 502L, 503L, 504L, 505L);
		assertThat(plan.entries().get(7).boostCandidates()).allMatch(Card::boosted);
		assertThat(ids(plan).subList(2, 7)).containsExactly(100L, 101L, 102L, 103L, 104L);
		assertThat(cards(plan)).noneMatch(Card::outsidePreferences);
		assertThat(plan.superLikersNotShown()).isEmpty();
	}

	@Test
	void theHiddenTheWaitingAndTheViewerNeverBecomeCardsAndHiddenOnesAreNoBoostCandidates() {
		Inputs in = inputs(false);
		in.ranked = new ArrayList<>(men(100, 20, 30, 2));
		in.ranked.add(man(VIEWER, 30, 0));
		in.boosted = List.of(man(500, 30, 3), man(501, 30, 3), man(102, 30, 2));
		in.hidden = Set.of(101L, 500L);
		in.waiting = Set.of(103L, 102L);

		DeckPlan.Plan plan = in.plan();

		assertThat(ids(plan)).doesNotContain(VIEWER, 101L, 103L, 102L, 500L).contains(100L, 104L);
		// someone waiting in the deck may still be picked for a slot; someone hidden not
		assertThat(plan.entries().stream().filter(DeckEntry::isSlot).findFirst().orElseThrow().boostCandidates())
			.extracting(Card::userId)
			.containsExactlyInAnyOrder(501L, 102L);
	}

	@Test
	void aSuperLikerLeftOutIsReportedForTheMySqlCheck() {
		Inputs in = inputs(false);
		in.superLikerIds = List.of(900L, 901L, 902L);
		// 901 is swiped (the filter says), 902 has no profile any more
		in.superLikers = List.of(man(900, 30, 1), man(901, 30, 1));
		in.hidden = Set.of(901L);

		DeckPlan.Plan plan = in.plan();

		assertThat(ids(plan)).containsExactly(900L);
		assertThat(plan.superLikersNotShown()).containsExactly(901L, 902L);
	}

	@Test
	void withoutTheFlagTheDeckEndsWithThePeopleWithinPreferences() {
		Inputs in = inputs(false);
		in.ranked = men(100, 3, 30, 2);
		in.beyond = men(200, 5, 30, 80);

		assertThat(ids(in.plan())).containsExactly(100L, 101L, 102L);
	}

	@Test
	void anExpandingDeckGoesOnBeyondTheDistanceNearestFirstUpToTheLimitAndMarksThoseCards() {
		Inputs in = inputs(true);
		in.ranked = men(100, 3, 30, 2);
		in.beyond = List.of(man(203, 30, 400), man(201, 30, 60), man(202, 30, 120), man(204, 30, 520));

		DeckPlan.Plan plan = in.plan();

		assertThat(ids(plan)).containsExactly(100L, 101L, 102L, 201L, 202L, 203L);
		assertThat(cards(plan).subList(0, 3)).noneMatch(Card::outsidePreferences);
		assertThat(cards(plan).subList(3, 6)).allMatch(Card::outsidePreferences);
		assertThat(cards(plan).get(3).distanceKm()).isEqualTo(60);
	}

	@Test
	void thenPeopleUpToFiveYearsOutsideTheAgeRangeNearestFirst() {
		Inputs in = inputs(true);
		in.ranked = men(100, 2, 30, 2);
		// the range is 25 to 35
		in.beyond = List.of(man(301, 40, 1), man(302, 41, 1), man(303, 20, 5), man(304, 19, 1), man(305, 38, 450),
				man(306, 38, 510), man(201, 35, 300));

		DeckPlan.Plan plan = in.plan();

		assertThat(ids(plan)).containsExactly(100L, 101L, 201L, 301L, 303L, 305L);
		assertThat(cards(plan).subList(2, 6)).allMatch(Card::outsidePreferences);
	}

	@Test
	void theOtherPersonsOwnPreferencesHoldInFull() {
		Inputs in = inputs(true);
		Candidate radiusTooShort = new Candidate(401, "Near-minded", Gender.MAN, Set.of(Gender.WOMAN),
				TODAY.minusYears(30).minusMonths(6), LAT + 80 / 111.2, LON, 18, 99, 50);
		Candidate wantsOlder = new Candidate(402, "Wants older", Gender.MAN, Set.of(Gender.WOMAN),
				TODAY.minusYears(30).minusMonths(6), LAT + 80 / 111.2, LON, 40, 99, 20_000);
		Candidate wantsMen = new Candidate(403, "Wants men", Gender.MAN, Set.of(Gender.MAN),
				TODAY.minusYears(30).minusMonths(6), LAT + 80 / 111.2, LON, 18, 99, 20_000);
		Candidate aWoman = new Candidate(404, "A woman", Gender.WOMAN, Set.of(Gender.WOMAN),
				TODAY.minusYears(30).minusMonths(6), LAT + 80 / 111.2, LON, 18, 99, 20_000);
		in.beyond = List.of(radiusTooShort, wantsOlder, wantsMen, aWoman, man(405, 30, 80));
		in.boosted = List.of(radiusTooShort);

		DeckPlan.Plan plan = in.plan();

		assertThat(ids(plan)).containsExactly(405L);
		assertThat(plan.entries()).noneMatch(DeckEntry::isSlot);
	}

	@Test
	void anExpandingDeckHonoursTheSwipeFilterBlocksAndBoostsAsForAnyCard() {
		Inputs in = inputs(true);
		in.ranked = men(100, 4, 30, 2);
		in.beyond = List.of(man(201, 30, 60), man(202, 30, 70), man(203, 30, 80), man(204, 30, 90));
		// 202 swiped, 203 blocked: both hidden alike
		in.hidden = Set.of(202L, 203L);
		// a boost beyond the distance may fill a slot once the deck goes beyond
		in.boosted = List.of(man(500, 30, 100));

		DeckPlan.Plan plan = in.plan();

		assertThat(ids(plan)).containsExactly(100L, 101L, 102L, 103L, 201L, 204L);
		DeckEntry slot = plan.entries().get(5);
		assertThat(slot.isSlot()).isTrue();
		assertThat(slot.boostCandidates()).singleElement()
			.satisfies((card) -> assertThat(card.outsidePreferences()).isTrue())
			.satisfies((card) -> assertThat(card.boosted()).isTrue());
	}

	@Test
	void aDeckThatDoesNotGoBeyondKeepsBoostsBeyondPreferencesOut() {
		Inputs in = inputs(true);
		in.ranked = men(100, 250, 30, 2);
		in.beyond = List.of(man(901, 30, 60));
		in.boosted = List.of(man(950, 30, 100), man(951, 30, 3));

		DeckPlan.Plan plan = in.plan();

		assertThat(ids(plan)).doesNotContain(901L);
		assertThat(plan.entries().get(5).boostCandidates()).extracting(Card::userId).containsExactly(951L);
	}

	@Test
	void aBoostedPersonSureToFillASlotIsNoOrdinaryCardOfTheSameDeck() {
		Inputs in = inputs(false);
		in.ranked = men(100, 20, 30, 2);
		in.boosted = List.of(man(105, 30, 2));

		DeckPlan.Plan plan = in.plan();

		assertThat(ids(plan)).hasSize(19).doesNotContain(105L);
		assertThat(plan.entries().get(5).boostCandidates()).extracting(Card::userId).containsExactly(105L);
	}

	@Test
	void aSparseAreaStillShowsItsBoostAfterItsCards() {
		Inputs in = inputs(false);
		in.ranked = men(100, 3, 30, 2);
		in.boosted = men(500, 3, 30, 3);

		DeckPlan.Plan plan = in.plan();

		assertThat(plan.entries()).hasSize(4);
		assertThat(plan.entries().get(3).isSlot()).isTrue();
	}

}
