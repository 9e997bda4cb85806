package io.kindling.swipe.deck;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

import io.kindling.swipe.bloom.SwipeHistoryFilter;
import io.kindling.swipe.boost.Boosts;
import io.kindling.swipe.geo.Geohash;
import io.kindling.swipe.geo.LocationGrid;
import io.kindling.swipe.profile.Profile;
import io.kindling.swipe.superlike.SuperLikes;

import org.springframework.stereotype.Component;

/**
 * The reads one deck is planned from: the viewer's super likers, the cell's boosts, the
 * ranked people of the viewer's area (widening while it yields too few new faces), and
 * for a viewer who expands, the people beyond. It writes nothing; the search area it
 * ended at comes back with the inputs for the caller to remember.
 */
@Component
class DeckReads {

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

	private final AreaRosters rosters;

	private final LocationGrid grid;

	/** The reads of one deck that wait at the same time, each on a virtual thread. */
	private final Executor readers = Executors.newVirtualThreadPerTaskExecutor();

	DeckReads(CandidateQueries queries, SwipeHistoryFilter swiped, SuperLikes superLikes, Boosts boosts,
			DeckProperties settings, SearchAreas areas, AreaRosters rosters, LocationGrid grid) {
		this.queries = queries;
		this.rosters = rosters;
		this.grid = grid;
		this.swiped = swiped;
		this.superLikes = superLikes;
		this.boosts = boosts;
		this.settings = settings;
		this.areas = areas;
	}

	/**
	 * @param inputs what the deck is planned from
	 * @param precision the search area that filled the deck (or the widest tried)
	 * @param lastPrecision the one remembered before
	 */
	record Read(DeckPlan.Inputs inputs, int precision, int lastPrecision) {

	}

	/**
	 * @param waiting the people still waiting in the deck this one follows, and the page
	 * just shown
	 */
	Read read(Profile viewer, Instant now, Set<Long> waiting) {
		LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
		int size = this.settings.size();
		// independent reads wait on their servers together, not one after the other
		CompletableFuture<Set<Long>> blocked = start(() -> this.queries.blockedEitherWay(viewer.userId()));
		CompletableFuture<List<Long>> superLikers = start(() -> this.superLikes.activeFor(viewer.userId(), now, size));
		CompletableFuture<List<Long>> boosted = start(
				() -> this.boosts.active(this.boosts.cellOf(viewer.geohash()), now));
		CompletableFuture<Long> swipeCount = start(() -> this.swiped.swipeCount(viewer.userId()));
		CompletableFuture<Integer> lastUsed = start(() -> this.areas.lastUsed(viewer));

		Set<Long> hidden = new HashSet<>(await(blocked));
		List<Long> superLikerIds = await(superLikers);
		List<Long> boostedIds = await(boosted);
		// a missing swipe filter is rebuilt by the count, before any check can race to
		long swipes = await(swipeCount);
		// the super likers and the boosted are checked against the filter while the
		// area is read
		List<Long> rest = new ArrayList<>(superLikerIds);
		rest.addAll(boostedIds);
		List<Long> restIds = List.copyOf(rest);
		CompletableFuture<Set<Long>> restSwiped = start(() -> this.swiped.swipedAmong(viewer.userId(), restIds));

		Set<Long> passed = new HashSet<>(hidden);
		passed.addAll(waiting);
		Area area = organicArea(viewer, today, now, passed, size, swipes, await(lastUsed));
		hidden.addAll(await(restSwiped));
		List<Long> beyondIds = List.of();
		if (viewer.expandWhenOut() && area.fresh().size() < size) {
			int limit = limit(size - area.fresh().size(), passed.size());
			beyondIds = this.queries.beyond(viewer, this.settings.maxExpandKm(), Candidate.AGE_SLACK_YEARS, today,
					limit);
			hidden.addAll(this.swiped.swipedAmong(viewer.userId(), beyondIds));
			rest.addAll(beyondIds);
		}

		// one profile read for everyone not yet dropped
		List<Long> chosen = area.fresh().subList(0, Math.min(area.fresh().size(), size));
		Set<Long> wanted = new HashSet<>(chosen);
		rest.stream().filter((id) -> !hidden.contains(id)).forEach(wanted::add);
		Map<Long, Candidate> byId = new HashMap<>();
		this.queries.byIds(wanted).forEach((candidate) -> byId.put(candidate.userId(), candidate));

		DeckPlan.Inputs inputs = new DeckPlan.Inputs(viewer, today, superLikerIds, found(superLikerIds, byId),
				found(chosen, byId), found(beyondIds, byId), found(boostedIds, byId), hidden, waiting);
		return new Read(inputs, area.precision(), area.lastPrecision());
	}

	private <T> CompletableFuture<T> start(Supplier<T> read) {
		return CompletableFuture.supplyAsync(read, this.readers);
	}

	/** The read's answer, or the exception it failed with, as the caller's own. */
	private static <T> T await(CompletableFuture<T> read) {
		try {
			return read.join();
		}
		catch (CompletionException ex) {
			if (ex.getCause() instanceof RuntimeException cause) {
				throw cause;
			}
			throw ex;
		}
	}

	/**
	 * The organic pool, best first: the viewer's geohash cell and its neighbours,
	 * widening to larger cells while the area yields fewer than {@code size} new faces,
	 * never wider than the viewer's distance needs. The area that sufficed last time is
	 * where the next deck starts, since swipes only use an area up.
	 */
	private Area organicArea(Profile viewer, LocalDate today, Instant now, Set<Long> passed, int size, long swipeCount,
			int lastUsed) {
		// wide enough for everyone whose cell's centre is within the viewer's radius
		int widest = Math.min(NARROWEST_PRECISION,
				Geohash.precisionFor(viewer.maxDistanceKm() + this.grid.diagonalKm()));
		// the already-swiped are mostly the best ranked: read past them
		int limit = limit(size, passed.size() + swipeCount);
		int precision = Math.max(widest, Math.min(NARROWEST_PRECISION, lastUsed));
		List<Long> fresh = List.of();
		for (; precision >= widest; precision--) {
			List<String> cells = Geohash.cellAndNeighbours(viewer.geohash().substring(0, precision));
			List<Long> ranked = this.rosters.ranked(viewer, cells, today, now, limit);
			Set<Long> swiped = this.swiped.swipedAmong(viewer.userId(), ranked);
			fresh = ranked.stream().filter((id) -> !swiped.contains(id) && !passed.contains(id)).toList();
			if (fresh.size() >= size) {
				break;
			}
		}
		return new Area(fresh, Math.max(precision, widest), lastUsed);
	}

	private int limit(int wanted, long skipped) {
		return (int) Math.min(this.settings.maxPool(), 2L * wanted + skipped);
	}

	private record Area(List<Long> fresh, int precision, int lastPrecision) {

	}

	private static List<Candidate> found(List<Long> ids, Map<Long, Candidate> byId) {
		List<Candidate> found = new ArrayList<>(ids.size());
		for (Long id : ids) {
			Candidate candidate = byId.get(id);
			if (candidate != null) {
				found.add(candidate);
			}
		}
		return found;
	}

}
