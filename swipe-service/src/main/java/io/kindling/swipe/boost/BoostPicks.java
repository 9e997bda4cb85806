package io.kindling.swipe.boost;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * Which boosted person fills each boost slot of a page, with no I/O: the least served of
 * the slot's candidates whose boost runs, among equals first one this viewer has not been
 * served (only that counts a view), then at random. Each pick counts before the next slot
 * chooses, so a page's two slots never take the same person and the second sees the
 * first's view.
 */
final class BoostPicks {

	private BoostPicks() {
	}

	/**
	 * @param slots each slot's candidates
	 * @param running the running boosts among all candidates, as they stand now
	 * @return per slot, the chosen boosted person (empty when none of its candidates
	 * runs), and the views to count
	 */
	static Picks choose(List<List<Long>> slots, List<Standing> running, RandomGenerator random) {
		Map<Long, Standing> byUser = new HashMap<>();
		Map<Long, Integer> tieBreak = new HashMap<>();
		for (Standing standing : running) {
			byUser.put(standing.userId(), standing);
			tieBreak.put(standing.userId(), random.nextInt());
		}
		Comparator<Standing> leastServed = Comparator.comparingLong(Standing::views)
			.thenComparing(Standing::seen)
			.thenComparingInt((standing) -> tieBreak.get(standing.userId()));
		Set<Long> onThisPage = new HashSet<>();
		List<Optional<Long>> chosen = new ArrayList<>(slots.size());
		List<Standing> counted = new ArrayList<>();
		for (List<Long> candidates : slots) {
			Optional<Standing> pick = candidates.stream()
				.filter((userId) -> !onThisPage.contains(userId))
				.map(byUser::get)
				.filter((standing) -> standing != null)
				.min(leastServed);
			pick.ifPresent((standing) -> {
				onThisPage.add(standing.userId());
				if (!standing.seen()) {
					counted.add(standing);
					byUser.put(standing.userId(), standing.servedOnce());
				}
			});
			chosen.add(pick.map(Standing::userId));
		}
		return new Picks(chosen, counted);
	}

	/**
	 * @param chosen per slot, the boosted person shown there
	 * @param counted the boosts that gain this viewer as a view
	 */
	record Picks(List<Optional<Long>> chosen, List<Standing> counted) {

	}

	/**
	 * A running boost as a page sees it.
	 *
	 * @param seen this viewer was served it already (a second serving counts nothing)
	 */
	record Standing(long boostId, long userId, long views, boolean seen) {

		Standing servedOnce() {
			return new Standing(this.boostId, this.userId, this.views + 1, true);
		}

	}

}
