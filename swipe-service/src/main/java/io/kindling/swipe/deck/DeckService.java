package io.kindling.swipe.deck;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import io.kindling.swipe.profile.Profile;
import io.kindling.swipe.profile.ProfileDirectory;
import io.kindling.swipe.swipe.SwipeRecorded;
import io.kindling.swipe.swipe.SwipeRewound;
import io.kindling.swipe.web.ProblemException;

import org.springframework.context.event.EventListener;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;

/**
 * Pages through the user's current deck and assembles a new one when it runs out. Each
 * page is checked against MySQL (swipes and blocks) before it is shown, so a card swiped
 * through another path since the deck was built never comes back.
 */
@Service
class DeckService {

	private final DeckStore store;

	private final DeckAssembler assembler;

	private final CandidateQueries queries;

	private final ProfileDirectory profiles;

	private final DeckProperties settings;

	private final Clock clock;

	private final SearchAreas areas;

	DeckService(DeckStore store, DeckAssembler assembler, CandidateQueries queries, ProfileDirectory profiles,
			DeckProperties properties, Clock clock, SearchAreas areas) {
		this.areas = areas;
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
		// a few rounds at most: a page thinned by the MySQL check is topped up from the
		// deck
		for (int round = 0; round < 4 && page.size() < limit; round++) {
			List<Card> taken = this.store.take(userId, limit - page.size());
			if (taken.isEmpty()) {
				if (assembled) {
					break;
				}
				Profile viewer = this.profiles.find(userId)
					.orElseThrow(() -> new ProblemException(HttpStatus.NOT_FOUND, "No profile",
							"Create a profile (PUT /api/profile) to get a deck."));
				DeckStore.Page first = this.store.keepAndTake(userId,
						this.assembler.assemble(viewer, this.clock.instant()), this.settings.ttl(),
						limit - page.size());
				assembled = true;
				if (first.fresh()) {
					// just checked against the swipe history filter and the blocks
					page.addAll(first.cards());
					continue;
				}
				taken = first.cards();
			}
			Set<Long> hidden = this.queries.notShowable(userId, taken.stream().map(Card::userId).toList());
			taken.stream().filter((card) -> !hidden.contains(card.userId())).forEach(page::add);
		}
		return page;
	}

	@EventListener
	void on(SwipeRecorded swipe) {
		if ("SUPER_LIKE".equals(swipe.action())) {
			// the target's next page is assembled anew, with this super liker on top
			this.store.discard(swipe.targetUserId());
		}
	}

	@EventListener
	void on(SwipeRewound rewind) {
		// the rewound person may come back: the next page assembles a deck without the
		// swipe
		this.store.discard(rewind.userId());
	}

}
