package io.kindling.swipe.deck;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.kindling.swipe.deck.Candidate.Fit;
import io.kindling.swipe.geo.LocationGrid;
import io.kindling.swipe.profile.Profile;

/**
 * Plans one deck from what was read, with no I/O: active super likers first, then the
 * people within the viewer's preferences as ranked, then (for a viewer who asked for more
 * when the deck runs out) people beyond the viewer's distance and then age preference,
 * nearest first and marked; a boost slot after every {@code organicPerBoost} of those
 * cards, at most {@code maxBoosted}. Never the viewer, anyone hidden (blocked either way,
 * swiped, or already waiting in the deck), or anyone whose own preferences leave the
 * viewer out.
 */
final class DeckPlan {

	private DeckPlan() {
	}

	/**
	 * @param size cards per deck
	 * @param organicPerBoost cards before each boost slot
	 * @param maxBoosted boost slots per deck at most
	 * @param maxExpandKm how far an expanding deck reaches
	 * @param grid the cells between whose centres every distance is taken: who is within
	 * either person's radius, the order beyond the viewer's, the figure on the card
	 */
	record Rules(int size, int organicPerBoost, int maxBoosted, int maxExpandKm, LocationGrid grid) {

		static Rules of(DeckProperties settings, LocationGrid grid) {
			return new Rules(settings.size(), settings.organicPerBoost(), settings.maxBoosted(), settings.maxExpandKm(),
					grid);
		}

	}

	/**
	 * What was read for one deck.
	 *
	 * @param superLikerIds the viewer's active super likers, soonest expiry first
	 * @param superLikers their candidates (some may be missing or no longer suit)
	 * @param ranked people of the viewer's area, best ranked first
	 * @param beyond people outside the viewer's own distance or age preference, any order
	 * (read only when the viewer expands and the area ran out)
	 * @param boosted the running boosts of the viewer's cell
	 * @param hidden blocked either way, or swiped (as the swipe filter says)
	 * @param waiting the cards still waiting in the deck this one follows, and the page
	 * just shown: not shown again as cards, but still boost candidates (a slot's pick is
	 * made when it is served, among the people not on that page)
	 */
	record Inputs(Profile viewer, LocalDate today, List<Long> superLikerIds, List<Candidate> superLikers,
			List<Candidate> ranked, List<Candidate> beyond, List<Candidate> boosted, Set<Long> hidden,
			Set<Long> waiting) {

	}

	/**
	 * @param entries the deck, next first
	 * @param superLikersNotShown active super likers left out, whose super like may have
	 * been answered (to be confirmed against MySQL before it is consumed)
	 */
	record Plan(List<DeckEntry> entries, List<Long> superLikersNotShown) {

	}

	static Plan plan(Inputs in, Rules rules) {
		Profile viewer = in.viewer();
		Set<Long> taken = new HashSet<>(in.hidden());
		taken.addAll(in.waiting());
		List<Card> superLikers = new ArrayList<>();
		for (Candidate candidate : in.superLikers()) {
			if (!taken.contains(candidate.userId()) && candidate.suits(viewer, in.today(), rules.grid())) {
				taken.add(candidate.userId());
				superLikers.add(card(candidate, in, rules, Fit.WITHIN, true));
			}
		}
		List<Long> notShown = new ArrayList<>();
		Set<Long> shownSuperLikers = new HashSet<>();
		superLikers.forEach((card) -> shownSuperLikers.add(card.userId()));
		in.superLikerIds().stream().filter((id) -> !shownSuperLikers.contains(id)).forEach(notShown::add);

		int room = Math.max(0, rules.size() - superLikers.size());
		List<Card> organic = new ArrayList<>(room);
		for (Candidate candidate : in.ranked()) {
			if (organic.size() >= room) {
				break;
			}
			if (!taken.contains(candidate.userId()) && candidate.suits(viewer, in.today(), rules.grid())) {
				taken.add(candidate.userId());
				organic.add(card(candidate, in, rules, Fit.WITHIN, false));
			}
		}
		boolean expanded = false;
		if (viewer.expandWhenOut() && organic.size() < room) {
			Map<Long, Placed> outside = new LinkedHashMap<>();
			for (Candidate candidate : in.beyond()) {
				Fit fit = candidate.fitFor(viewer, in.today(), rules.maxExpandKm(), rules.grid());
				if (fit != Fit.WITHIN && fit != Fit.NONE && !taken.contains(candidate.userId())) {
					// nearest first by the cells' centres: the order says no more than
					// the figure
					outside.putIfAbsent(candidate.userId(),
							new Placed(candidate, fit, candidate.distanceKm(viewer, rules.grid())));
				}
			}
			List<Placed> nearestFirst = new ArrayList<>(outside.values());
			nearestFirst.sort(Comparator.comparing(Placed::fit)
				.thenComparingDouble(Placed::distanceKm)
				.thenComparingLong((placed) -> placed.candidate().userId()));
			for (Placed placed : nearestFirst) {
				if (organic.size() >= room) {
					break;
				}
				taken.add(placed.candidate().userId());
				organic.add(card(placed.candidate(), in, rules, placed.fit(), false));
				expanded = true;
			}
		}

		List<Card> boostCandidates = new ArrayList<>();
		for (Candidate candidate : in.boosted()) {
			if (in.hidden().contains(candidate.userId()) || shownSuperLikers.contains(candidate.userId())) {
				continue;
			}
			Fit fit = candidate.fitFor(viewer, in.today(), rules.maxExpandKm(), rules.grid());
			// an expanding deck's boosts reach as far as its other cards
			if (fit == Fit.WITHIN || (expanded && fit != Fit.NONE)) {
				boostCandidates.add(card(candidate, in, rules, fit, false).asBoosted());
			}
		}
		// about one per organic-per-boost cards; a sparse area still gets one
		int slots = Math.min(Math.min(rules.maxBoosted(), boostCandidates.size()),
				Math.max(1, organic.size() / rules.organicPerBoost()));
		if (slots > 0 && boostCandidates.size() <= slots) {
			// each of them will fill a slot: not an ordinary card as well
			Set<Long> sure = new HashSet<>();
			boostCandidates.forEach((card) -> sure.add(card.userId()));
			organic.removeIf((card) -> sure.contains(card.userId()));
		}

		List<DeckEntry> entries = new ArrayList<>(rules.size());
		superLikers.forEach((card) -> entries.add(DeckEntry.of(card)));
		int sinceSlot = 0;
		int slotsPlaced = 0;
		for (Card card : organic) {
			if (entries.size() >= rules.size()) {
				break;
			}
			entries.add(DeckEntry.of(card));
			if (++sinceSlot == rules.organicPerBoost() && slotsPlaced < slots && entries.size() < rules.size()) {
				entries.add(DeckEntry.slot(boostCandidates));
				slotsPlaced++;
				sinceSlot = 0;
			}
		}
		// a sparse area still shows its boosts, after the other cards
		while (slotsPlaced < slots && entries.size() < rules.size()) {
			entries.add(DeckEntry.slot(boostCandidates));
			slotsPlaced++;
		}
		return new Plan(entries, notShown);
	}

	private static Card card(Candidate candidate, Inputs in, Rules rules, Fit fit, boolean superLiker) {
		long distance = rules.grid()
			.shownDistanceKm(in.viewer().lat(), in.viewer().lon(), candidate.lat(), candidate.lon());
		return new Card(candidate.userId(), candidate.displayName(), candidate.ageOn(in.today()), distance, superLiker,
				false, fit != Fit.WITHIN);
	}

	/** A candidate outside the viewer's preferences, with how it fits and how far. */
	private record Placed(Candidate candidate, Fit fit, double distanceKm) {

	}

}
