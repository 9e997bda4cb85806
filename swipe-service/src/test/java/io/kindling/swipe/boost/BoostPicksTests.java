package io.kindling.swipe.boost;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.LongStream;

import io.kindling.swipe.boost.BoostPicks.Standing;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** How a page's boost slots are filled, with no servers. */
class BoostPicksTests {

	@Test
	void aSlotTakesTheLeastServedAndAmongEqualsOneThisViewerWasNotServed() {
		List<Standing> running = List.of(new Standing(11, 1, 3, false), new Standing(12, 2, 2, true),
				new Standing(13, 3, 2, false), new Standing(14, 4, 5, false));

		BoostPicks.Picks picks = BoostPicks.choose(List.of(List.of(1L, 2L, 3L, 4L)), running, new SplittableRandom(1));

		assertThat(picks.chosen()).containsExactly(Optional.of(3L));
		assertThat(picks.counted()).extracting(Standing::boostId).containsExactly(13L);
	}

	@Test
	void theLeastServedIsTakenEvenWhenThisViewerWasServedItAndThenItCountsNothing() {
		List<Standing> running = List.of(new Standing(11, 1, 1, true), new Standing(12, 2, 2, false));

		BoostPicks.Picks picks = BoostPicks.choose(List.of(List.of(1L, 2L)), running, new SplittableRandom(1));

		assertThat(picks.chosen()).containsExactly(Optional.of(1L));
		assertThat(picks.counted()).isEmpty();
	}

	@Test
	void twoSlotsOfAPageTakeTwoPeopleAndTheSecondSeesTheFirstsView() {
		List<Standing> running = List.of(new Standing(11, 1, 0, false), new Standing(12, 2, 1, false),
				new Standing(13, 3, 1, false));

		BoostPicks.Picks picks = BoostPicks.choose(List.of(List.of(1L, 2L, 3L), List.of(1L, 2L, 3L)), running,
				new SplittableRandom(1));

		assertThat(picks.chosen().get(0)).contains(1L);
		assertThat(picks.chosen().get(1)).isIn(Optional.of(2L), Optional.of(3L));
		assertThat(picks.counted()).hasSize(2);
	}

	@Test
	void aSlotWhoseBoostsAllEndedStaysEmpty() {
		BoostPicks.Picks picks = BoostPicks.choose(List.of(List.of(7L)), List.of(), new SplittableRandom(1));

		assertThat(picks.chosen()).containsExactly(Optional.empty());
	}

	@Test
	void viewersServedOneAfterAnotherKeepEveryBoostWithinOneViewOfTheOthers() {
		// six boosts, twelve viewers each served two slots per page on a few pages: what
		// the table would hold after every page
		Map<Long, Long> views = new HashMap<>();
		Map<Long, Set<Long>> seenBy = new HashMap<>();
		List<Long> boosts = LongStream.rangeClosed(1, 6).boxed().toList();
		boosts.forEach((id) -> {
			views.put(id, 0L);
			seenBy.put(id, new HashSet<>());
		});
		SplittableRandom random = new SplittableRandom(42);
		for (long viewer = 100; viewer < 112; viewer++) {
			for (int page = 0; page < 1 + (int) (viewer % 3); page++) {
				List<Standing> running = new ArrayList<>();
				for (long id : boosts) {
					running.add(new Standing(id, id, views.get(id), seenBy.get(id).contains(viewer)));
				}
				BoostPicks.Picks picks = BoostPicks.choose(List.of(boosts, boosts), running, random);
				for (Standing counted : picks.counted()) {
					views.merge(counted.userId(), 1L, Long::sum);
					seenBy.get(counted.userId()).add(viewer);
				}
				long most = views.values().stream().mapToLong(Long::longValue).max().orElseThrow();
				long least = views.values().stream().mapToLong(Long::longValue).min().orElseThrow();
				assertThat(most - least).as("views %s", views).isLessThanOrEqualTo(1);
			}
		}
	}

}
