package io.kindling.swipe.swipe;

import java.time.Instant;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Finishes swipes whose request died between TX 1, the script and TX 2 (they keep
 * {@code response_status IS NULL}), creating the match and its outbox row when the pair
 * is mutual. Every instance runs it; finishing is idempotent, so two of them on the same
 * row agree.
 */
@Component
class SwipeReconciler {

	private static final Logger log = LoggerFactory.getLogger(SwipeReconciler.class);

	private final SwipeHistory history;

	private final Swipes swipes;

	private final SwipeProperties properties;

	SwipeReconciler(SwipeHistory history, Swipes swipes, SwipeProperties properties) {
		this.history = history;
		this.swipes = swipes;
		this.properties = properties;
	}

	/** Finishes one batch of stale unfinished swipes; returns how many it finished. */
	@Scheduled(initialDelayString = "#{" + SwipeProperties.BEAN + ".reconciler().interval()}",
			fixedDelayString = "#{" + SwipeProperties.BEAN + ".reconciler().interval()}")
	int reconcile() {
		Instant cutoff = this.swipes.now().minus(this.properties.reconciler().after());
		List<SwipeRow> unfinished = this.history.unfinished(cutoff, this.properties.reconciler().batchSize());
		int finished = 0;
		for (SwipeRow swipe : unfinished) {
			try {
				this.swipes.finish(swipe);
				finished++;
			}
			catch (RuntimeException ex) {
				// one stuck row must not starve the rest; it is picked up again next
				// round
				log.warn("could not finish swipe {} yet", swipe.swipeId(), ex);
			}
		}
		if (finished > 0) {
			log.info("finished {} swipes left undecided by an interrupted request", finished);
		}
		return finished;
	}

}
