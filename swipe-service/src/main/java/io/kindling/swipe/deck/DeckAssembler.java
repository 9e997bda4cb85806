package io.kindling.swipe.deck;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.kindling.swipe.bloom.SwipeHistoryFilter;
import io.kindling.swipe.boost.Boosts;
import io.kindling.swipe.geo.Geohash;
import io.kindling.swipe.geo.LocationGrid;
import io.kindling.swipe.profile.Profile;
import io.kindling.swipe.superlike.SuperLikes;

import org.springframework.stereotype.Component;

/**
 * Builds one deck: active super likers first, then the organic pool ranked by
 * desirability and recency, with about one boosted profile after every
 * {@code organic-per-boost} organic ones and at most {@code max-boosted} per deck; never
 * the viewer, anyone blocked either way, or anyone already swiped.
 */
@Component
class DeckAssembler {

	/**
	 * The narrowest search area: geohash cells of about 1.2 × 0.6 km and their
	 * neighbours, enough in a dense city centre.
	 */
	private static final int NARROWEST_PRECISION = 6;

	private final CandidateQueries queries;

	private final SwipeHistoryFilter swiped;

	private final SuperLikes superLikes;

	private final Boosts boosts;

	private final DeckProperties settings;

	private final SearchAreas areas;

	private final LocationGrid grid;

	DeckAssembler(CandidateQueries queries, SwipeHistoryFilter swiped, SuperLikes superLikes, Boosts boosts,
			DeckProperties properties, SearchAreas areas, LocationGrid grid) {
		this.areas = areas;
		this.grid = grid;
		this.queries = queries;
		this.swiped = swiped;
		this.superLikes = superLikes;
		this.boosts = boosts;
		this.settings = properties;
	}

	List<Card> assemble(Profile viewer, Instant now) {
		return assemble(viewer, now, Set.of());
	}

	/**
	 * A deck without the people in {@code exclude} (the cards still waiting in the deck
	 * this one will follow).
	 */
	List<Card> assemble(Profile viewer, Instant now, Set<Long> exclude) {
		LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
		int size = this.settings.size();
		Set<Long> blocked = new HashSet<>(this.queries.blockedEitherWay(viewer.userId()));
		blocked.addAll(exclude);

		List<Long> superLikerIds = this.superLikes.activeFor(viewer.userId(), now, size);
		List<Candidate> superLikers = eligible(viewer, today, this.queries.byIds(superLikerIds, now), blocked);
		consumeAnswered(viewer.userId(), superLikerIds, superLikers);

		String cell = this.boosts.cellOf(viewer.geohash());
		List<Candidate> boosted = eligible(viewer, today, this.queries.byIds(this.boosts.active(cell, now), now),
				blocked);

		Map<Long, Candidate> organic = organicPool(viewer, today, now, blocked, size);
		superLikers.forEach((candidate) -> organic.remove(candidate.userId()));
		boosted.removeIf((candidate) -> superLikers.stream().anyMatch((s) -> s.userId() == candidate.userId()));

		int organicRoom = size - superLikers.size();
		// about one per organic-per-boost organic cards; a sparse area still gets one
		int organicCards = Math.min(organic.size(), Math.max(0, organicRoom));
		int slots = Math.min(Math.min(this.settings.maxBoosted(), boosted.size()),
				Math.max(1, organicCards / this.settings.organicPerBoost()));
		List<Long> boostedIds = new ArrayList<>(boosted.stream().map(Candidate::userId).toList());
		// random order breaks ties between equally shown boosts fairly
		Collections.shuffle(boostedIds);
		List<Long> picked = this.boosts.pickLeastServed(viewer.userId(), boostedIds, slots, now);
		Map<Long, Candidate> boostedById = new LinkedHashMap<>();
		boosted.forEach((candidate) -> boostedById.put(candidate.userId(), candidate));
		picked.forEach(organic::remove);

		List<Placed> order = new ArrayList<>(size);
		superLikers.forEach((candidate) -> order.add(new Placed(candidate, Kind.SUPER_LIKER)));
		int organicSinceBoost = 0;
		int nextBoost = 0;
		for (Candidate candidate : organic.values()) {
			if (order.size() >= size) {
				break;
			}
			order.add(new Placed(candidate, Kind.ORGANIC));
			if (++organicSinceBoost == this.settings.organicPerBoost() && nextBoost < picked.size()
					&& order.size() < size) {
				order.add(new Placed(boostedById.get(picked.get(nextBoost++)), Kind.BOOSTED));
				organicSinceBoost = 0;
			}
		}
		// a sparse area still shows its picked boosts, after the organic cards
		while (nextBoost < picked.size() && order.size() < size) {
			order.add(new Placed(boostedById.get(picked.get(nextBoost++)), Kind.BOOSTED));
		}
		return order.stream().map((placed) -> placed.card(viewer, today, this.grid)).toList();
	}

	/**
	 * The organic pool, best first: the viewer's geohash cell and its neighbours,
	 * widening to larger cells while the area yields fewer than {@code size} new faces,
	 * never wider than the viewer's distance needs. The area that sufficed last time is
	 * where the next deck starts, since swipes only use an area up.
	 */
	private Map<Long, Candidate> organicPool(Profile viewer, LocalDate today, Instant now, Set<Long> blocked,
			int size) {
		int widest = Math.min(NARROWEST_PRECISION, Geohash.precisionFor(viewer.maxDistanceKm()));
		long swipes = this.swiped.swipeCount(viewer.userId());
		// the already-swiped are mostly the best ranked: read past them
		int limit = (int) Math.min(this.settings.maxPool(), 2L * size + swipes + blocked.size());
		List<Long> fresh = List.of();
		int lastUsed = this.areas.lastUsed(viewer);
		int precision = Math.max(widest, Math.min(NARROWEST_PRECISION, lastUsed));
		for (; precision >= widest; precision--) {
			List<String> cells = Geohash.cellAndNeighbours(viewer.geohash().substring(0, precision));
			List<Long> ranked = this.queries.near(viewer, cells, today, now, limit);
			Set<Long> swiped = this.swiped.swipedAmong(viewer.userId(), ranked);
			fresh = ranked.stream().filter((id) -> !swiped.contains(id) && !blocked.contains(id)).toList();
			if (fresh.size() >= size) {
				break;
			}
		}
		if (Math.max(precision, widest) != lastUsed) {
			this.areas.remember(viewer, Math.max(precision, widest));
		}
		List<Long> chosen = fresh.subList(0, Math.min(fresh.size(), size));
		Map<Long, Candidate> byId = new HashMap<>();
		for (Candidate candidate : this.queries.byIds(chosen, now)) {
			byId.put(candidate.userId(), candidate);
		}
		Map<Long, Candidate> pool = new LinkedHashMap<>();
		for (Long id : chosen) {
			Candidate candidate = byId.get(id);
			if (candidate != null && candidate.suits(viewer, today)) {
				pool.put(id, candidate);
			}
		}
		return pool;
	}

	/**
	 * Consumes the super likes of senders the viewer has answered. The filter only
	 * proposes them (with the senders dropped for other reasons); MySQL confirms, so a
	 * false positive never takes a super like away.
	 */
	private void consumeAnswered(long viewerId, List<Long> active, List<Candidate> shown) {
		if (shown.size() == active.size()) {
			return;
		}
		Set<Long> shownIds = new HashSet<>();
		shown.forEach((candidate) -> shownIds.add(candidate.userId()));
		List<Long> dropped = active.stream().filter((id) -> !shownIds.contains(id)).toList();
		this.superLikes.consume(viewerId, this.queries.notShowable(viewerId, dropped));
	}

	/** Drops whom the viewer must not see; keeps the order. */
	private List<Candidate> eligible(Profile viewer, LocalDate today, List<Candidate> candidates, Set<Long> blocked) {
		List<Candidate> suitable = new ArrayList<>();
		for (Candidate candidate : candidates) {
			if (!blocked.contains(candidate.userId()) && candidate.suits(viewer, today)) {
				suitable.add(candidate);
			}
		}
		Set<Long> swiped = this.swiped.swipedAmong(viewer.userId(), suitable.stream().map(Candidate::userId).toList());
		suitable.removeIf((candidate) -> swiped.contains(candidate.userId()));
		return suitable;
	}

	/** Why a card is in the deck, which the card shows. */
	private enum Kind {

		SUPER_LIKER, ORGANIC, BOOSTED

	}

	/** A candidate at its place in the deck. */
	private record Placed(Candidate candidate, Kind kind) {

		Card card(Profile viewer, LocalDate today, LocationGrid grid) {
			long distance = grid.shownDistanceKm(viewer.lat(), viewer.lon(), this.candidate.lat(),
					this.candidate.lon());
			return new Card(this.candidate.userId(), this.candidate.displayName(), this.candidate.ageOn(today),
					distance, this.kind == Kind.SUPER_LIKER, this.kind == Kind.BOOSTED);
		}

	}

}
