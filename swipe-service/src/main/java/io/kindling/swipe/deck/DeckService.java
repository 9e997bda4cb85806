package io.kindling.swipe.deck;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;

import io.kindling.swipe.boost.Boosts;
import io.kindling.swipe.geo.LocationGrid;
import io.kindling.swipe.profile.Profile;
import io.kindling.swipe.profile.ProfileDirectory;
import io.kindling.swipe.profile.ProfileRefusals;
import io.kindling.swipe.superlike.SuperLikes;
import io.kindling.swipe.swipe.Action;
import io.kindling.swipe.swipe.SwipeRecorded;
import io.kindling.swipe.swipe.SwipeRewound;
import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.event.EventListener;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Service;

/**
 * Pages through the user's current deck and assembles a new one when it runs out. Each
 * page is checked against MySQL (swipes and blocks) before it is shown, so a card swiped
 * through another path since the deck was built never comes back.
 */
@Service
class DeckService {

	private static final Logger log = LoggerFactory.getLogger(DeckService.class);

	private final DeckStore store;

	private final DeckReads reads;

	private final CandidateQueries queries;

	private final ProfileDirectory profiles;

	private final DeckProperties settings;

	private final Clock clock;

	private final SearchAreas areas;

	private final SuperLikes superLikes;

	private final Boosts boosts;

	private final DeckPlan.Rules rules;

	/** Background refills: short, each waiting on Redis and MySQL. */
	private final ExecutorService refills = Executors
		.newThreadPerTaskExecutor(Thread.ofVirtual().name("deck-refill-", 0).factory());

	DeckService(DeckStore store, DeckReads reads, CandidateQueries queries, ProfileDirectory profiles,
			DeckProperties properties, Clock clock, SearchAreas areas, SuperLikes superLikes, Boosts boosts,
			LocationGrid grid) {
		this.store = store;
		this.reads = reads;
		this.queries = queries;
		this.profiles = profiles;
		this.settings = properties;
		this.clock = clock;
		this.areas = areas;
		this.superLikes = superLikes;
		this.boosts = boosts;
		this.rules = DeckPlan.Rules.of(properties, grid);
	}

	List<Card> next(long userId, int limit) {
		List<DeckEntry> page = new ArrayList<>(limit);
		boolean assembled = false;
		DeckStore.Taken last = null;
		// a few rounds at most: a page thinned by the MySQL check is topped up from the
		// deck
		for (int round = 0; round < 4 && page.size() < limit; round++) {
			DeckStore.Taken taken = this.store.take(userId, limit - page.size());
			last = taken;
			List<DeckEntry> entries = taken.entries();
			if (entries.isEmpty()) {
				if (assembled) {
					break;
				}
				Profile viewer = this.profiles.find(userId)
					.orElseThrow(() -> ProfileRefusals.noProfile("to get a deck"));
				// a page topped up from a new deck does not show its own cards twice
				DeckStore.Page first = this.store.keepAndTake(userId, assemble(viewer, idsOf(page)),
						this.settings.ttl(), limit - page.size());
				assembled = true;
				last = null;
				if (first.fresh()) {
					// just checked against the swipe history filter and the blocks
					page.addAll(first.entries());
					continue;
				}
				entries = first.entries();
			}
			page.addAll(showable(userId, entries));
		}
		if (last != null && !page.isEmpty() && last.left() < this.settings.refillBelow()) {
			refillSoon(userId, last.generation(), idsOf(page));
		}
		return fillBoostSlots(userId, page);
	}

	/**
	 * Assembles a deck: the reads, the plan (no I/O), then the writes the reads call for,
	 * each in sight here.
	 * @param waiting the people still waiting in the deck this one follows, and the page
	 * just shown
	 */
	private List<DeckEntry> assemble(Profile viewer, Set<Long> waiting) {
		DeckReads.Read read = this.reads.read(viewer, this.clock.instant(), waiting);
		DeckPlan.Plan plan = DeckPlan.plan(read.inputs(), this.rules);
		if (read.precision() != read.lastPrecision()) {
			this.areas.remember(viewer, read.precision());
		}
		if (!plan.superLikersNotShown().isEmpty()) {
			// the filter only proposes answered super likes; MySQL confirms, so a false
			// positive never takes a super like away
			this.superLikes.consume(viewer.userId(),
					this.queries.notShowable(viewer.userId(), plan.superLikersNotShown()));
		}
		return plan.entries();
	}

	/**
	 * The truth for the entries taken from a stored deck: whom the viewer swiped or is
	 * blocked with since it was built is dropped, from the cards and from the slots'
	 * candidates.
	 */
	private List<DeckEntry> showable(long userId, List<DeckEntry> entries) {
		Set<Long> ids = new HashSet<>();
		for (DeckEntry entry : entries) {
			if (entry.card() != null) {
				ids.add(entry.card().userId());
			}
			entry.boostCandidates().forEach((card) -> ids.add(card.userId()));
		}
		Set<Long> hidden = this.queries.notShowable(userId, ids);
		List<DeckEntry> showable = new ArrayList<>(entries.size());
		for (DeckEntry entry : entries) {
			if (entry.card() == null) {
				showable.add(DeckEntry
					.slot(entry.boostCandidates().stream().filter((card) -> !hidden.contains(card.userId())).toList()));
			}
			else if (!hidden.contains(entry.card().userId())) {
				showable.add(entry);
			}
		}
		return showable;
	}

	/**
	 * The page as served: each boost slot takes the least served of its candidates, and
	 * that view is counted at once. Someone chosen who also holds an ordinary place on
	 * this page or further on in the deck is shown once, in the slot. A slot none of
	 * whose boosts runs any more is left out.
	 */
	private List<Card> fillBoostSlots(long viewerId, List<DeckEntry> page) {
		List<List<Long>> slots = new ArrayList<>();
		for (DeckEntry entry : page) {
			if (entry.isSlot()) {
				slots.add(entry.boostCandidates().stream().map(Card::userId).toList());
			}
		}
		List<Optional<Long>> chosen = slots.isEmpty() ? List.of() : chooseBoosts(viewerId, slots);
		Set<Long> inSlots = new HashSet<>();
		chosen.forEach((pick) -> pick.ifPresent(inSlots::add));
		List<Card> cards = new ArrayList<>(page.size());
		int slot = 0;
		for (DeckEntry entry : page) {
			if (!entry.isSlot()) {
				if (!inSlots.contains(entry.card().userId())) {
					cards.add(entry.card());
				}
				continue;
			}
			Optional<Long> pick = chosen.get(slot++);
			entry.boostCandidates()
				.stream()
				.filter((card) -> pick.isPresent() && card.userId() == pick.get())
				.findFirst()
				.ifPresent((card) -> {
					cards.add(card);
					this.store.remove(viewerId, card.asOrganic());
				});
		}
		return cards;
	}

	private List<Optional<Long>> chooseBoosts(long viewerId, List<List<Long>> slots) {
		try {
			return this.boosts.serve(viewerId, slots, this.clock.instant());
		}
		catch (DataAccessException ex) {
			// the cards are taken from the deck already: better served without its
			// boosted ones than lost
			log.warn("could not fill the boost slots of a page for user {}", viewerId, ex);
			return slots.stream().map((slot) -> Optional.<Long>empty()).toList();
		}
	}

	private static Set<Long> idsOf(List<DeckEntry> entries) {
		Set<Long> ids = new HashSet<>();
		for (DeckEntry entry : entries) {
			if (entry.card() != null) {
				ids.add(entry.card().userId());
			}
		}
		return ids;
	}

	/**
	 * Assembles the deck that follows the current one in the background, so that the page
	 * after the last card is read from Redis like any other instead of waiting for an
	 * assembly. It leaves out the cards still in the deck and the page just shown.
	 */
	private void refillSoon(long userId, long generation, Set<Long> shown) {
		if (!this.store.claimRefill(userId)) {
			return;
		}
		try {
			this.refills.execute(() -> refill(userId, generation, shown));
		}
		catch (RejectedExecutionException shuttingDown) {
			// the next page assembles inline; the lease runs out
		}
	}

	private void refill(long userId, long generation, Set<Long> shown) {
		try {
			Profile viewer = this.profiles.find(userId).orElse(null);
			if (viewer == null) {
				this.store.append(userId, generation, List.of(), this.settings.ttl());
				return;
			}
			Set<Long> waiting = new HashSet<>(this.store.remainingIds(userId));
			waiting.addAll(shown);
			this.store.append(userId, generation, assemble(viewer, waiting), this.settings.ttl());
		}
		catch (RuntimeException ex) {
			// the next page that finds the deck empty assembles inline; the lease runs
			// out
			log.warn("background refill of the deck of user {} failed", userId, ex);
		}
	}

	/**
	 * A refill is a head start, never owed: shutdown interrupts the ones running instead
	 * of waiting on them (close() would wait for each to finish its queries).
	 */
	@PreDestroy
	void stopRefills() {
		this.refills.shutdownNow();
	}

	@EventListener
	void on(SwipeRecorded swipe) {
		if (swipe.action() == Action.SUPER_LIKE) {
			// the target's next page is assembled anew, with this super liker on top
			this.store.discard(swipe.targetUserId(), this.settings.ttl());
		}
	}

	@EventListener
	void on(SwipeRewound rewind) {
		// the rewound person may come back: the next page assembles a deck without the
		// swipe, from the narrowest area again
		this.store.discard(rewind.userId(), this.settings.ttl());
		this.areas.forget(rewind.userId());
	}

}
