package io.kindling.swipe.deck;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;

import io.kindling.swipe.boost.Boosts;
import io.kindling.swipe.profile.Profile;
import io.kindling.swipe.profile.ProfileRefused;
import io.kindling.swipe.profile.ProfileDirectory;
import io.kindling.swipe.security.Suspensions;
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
 * through another path since the deck was built never comes back, and against the bans in
 * force.
 */
@Service
class DeckService {

	private static final Logger log = LoggerFactory.getLogger(DeckService.class);

	private final DeckStore store;

	private final DeckAssembler assembler;

	private final CandidateQueries queries;

	private final ProfileDirectory profiles;

	private final DeckProperties settings;

	private final Clock clock;

	private final SearchAreas areas;

	private final Boosts boosts;

	private final Suspensions suspensions;

	/** Background refills: short, each waiting on Redis and MySQL. */
	private final ExecutorService refills = Executors
		.newThreadPerTaskExecutor(Thread.ofVirtual().name("deck-refill-", 0).factory());

	DeckService(DeckStore store, DeckAssembler assembler, CandidateQueries queries, ProfileDirectory profiles,
			DeckProperties properties, Clock clock, SearchAreas areas, Boosts boosts, Suspensions suspensions) {
		this.suspensions = suspensions;
		this.areas = areas;
		this.boosts = boosts;
		this.store = store;
		this.assembler = assembler;
		this.queries = queries;
		this.profiles = profiles;
		this.settings = properties;
		this.clock = clock;
	}

	List<Card> next(long userId, int limit) {
		List<Card> page = new ArrayList<>(limit);
		boolean assembled = false;
		DeckStore.Taken last = null;
		// a few rounds at most: a page thinned by the MySQL check is topped up from the
		// deck
		for (int round = 0; round < 4 && page.size() < limit; round++) {
			DeckStore.Taken taken = this.store.take(userId, limit - page.size());
			last = taken;
			List<Card> cards = taken.cards();
			if (cards.isEmpty()) {
				if (assembled) {
					break;
				}
				Profile viewer = this.profiles.find(userId)
					.orElseThrow(() -> ProfileRefused.noProfile("to get a deck"));
				// a page topped up from a new deck does not show its own cards twice
				Set<Long> onThisPage = new HashSet<>();
				page.forEach((card) -> onThisPage.add(card.userId()));
				DeckStore.Page first = this.store.keepAndTake(userId,
						this.assembler.assemble(viewer, this.clock.instant(), onThisPage), this.settings.ttl(),
						limit - page.size());
				assembled = true;
				last = null;
				if (first.fresh()) {
					// just checked against the swipe history filter and the blocks
					page.addAll(first.cards());
					continue;
				}
				cards = first.cards();
			}
			Set<Long> hidden = this.queries.notShowable(userId, cards.stream().map(Card::userId).toList());
			cards.stream().filter((card) -> !hidden.contains(card.userId())).forEach(page::add);
		}
		// a user banned since the deck was built is never shown
		page.removeIf((card) -> this.suspensions.of(card.userId()).isPresent());
		if (last != null && !page.isEmpty() && last.left() < this.settings.refillBelow()) {
			refillSoon(userId, last.generation(), page);
		}
		countBoostedViews(userId, page);
		return page;
	}

	/**
	 * A boosted card counts as seen when a page holding it is served, here, and not when
	 * a deck is assembled: a deck the viewer never reaches, discards (a rewind, a super
	 * like received) or outlives the boost costs the boosted person nothing.
	 */
	private void countBoostedViews(long viewerId, List<Card> page) {
		List<Long> boosted = page.stream().filter(Card::boosted).map(Card::userId).toList();
		if (boosted.isEmpty()) {
			return;
		}
		try {
			this.boosts.served(viewerId, boosted, this.clock.instant());
		}
		catch (DataAccessException ex) {
			// the page is taken from the deck already: better served with a view
			// uncounted than lost
			log.warn("could not count the boosted views of a page for user {}", viewerId, ex);
		}
	}

	/**
	 * Assembles the deck that follows the current one in the background, so that the page
	 * after the last card is read from Redis like any other instead of waiting for an
	 * assembly. It leaves out the cards still in the deck and the page just shown.
	 */
	private void refillSoon(long userId, long generation, List<Card> shown) {
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

	private void refill(long userId, long generation, List<Card> shown) {
		try {
			Profile viewer = this.profiles.find(userId).orElse(null);
			if (viewer == null) {
				this.store.append(userId, generation, List.of(), this.settings.ttl());
				return;
			}
			Set<Long> exclude = new HashSet<>(this.store.remainingIds(userId));
			shown.forEach((card) -> exclude.add(card.userId()));
			this.store.append(userId, generation, this.assembler.assemble(viewer, this.clock.instant(), exclude),
					this.settings.ttl());
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
		if ("SUPER_LIKE".equals(swipe.action())) {
			// the target's next page is assembled anew, with this super liker on top
			this.store.discard(swipe.targetUserId(), this.settings.ttl());
		}
	}

	@EventListener
	void on(SwipeRewound rewind) {
		// the rewound person may come back: the next page assembles a deck without the
		// swipe
		this.store.discard(rewind.userId(), this.settings.ttl());
	}

}
