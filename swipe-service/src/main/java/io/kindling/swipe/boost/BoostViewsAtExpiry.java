package io.kindling.swipe.boost;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Records how many viewers each boost was served, once it has expired, in the histogram
 * {@code kindling.swipe.boost.views}: what a boost bought. Every instance looks every
 * {@code boost.expiry-interval}; a boost is taken by one of them ({@code SKIP LOCKED})
 * and marked recorded in the same transaction, and its viewers' rows go with it.
 */
@Component
class BoostViewsAtExpiry {

	private static final Logger log = LoggerFactory.getLogger(BoostViewsAtExpiry.class);

	private static final int BATCH = 500;

	private final BoostStore store;

	private final TransactionTemplate transactions;

	private final Clock clock;

	private final DistributionSummary views;

	BoostViewsAtExpiry(BoostStore store, TransactionTemplate transactions, Clock clock, MeterRegistry meters) {
		this.store = store;
		this.transactions = transactions;
		this.clock = clock;
		this.views = DistributionSummary.builder("kindling.swipe.boost.views")
			.description("Viewers served each boost, recorded when it expires")
			.baseUnit("views")
			.serviceLevelObjectives(1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000)
			.register(meters);
	}

	@Scheduled(initialDelayString = "#{" + BoostProperties.BEAN + ".expiryInterval()}",
			fixedDelayString = "#{" + BoostProperties.BEAN + ".expiryInterval()}")
	void recordSafely() {
		try {
			record();
		}
		catch (RuntimeException ex) {
			// the boosts stay unrecorded and are taken next time
			log.warn("could not record the views of expired boosts yet", ex);
		}
	}

	/** Records the boosts expired by now; returns how many. */
	int record() {
		Instant now = this.clock.instant();
		int recorded = 0;
		List<BoostStore.Boost> expired;
		do {
			expired = Objects
				.requireNonNull(this.transactions.execute((tx) -> this.store.takeExpiredUnrecorded(now, BATCH)));
			// after the commit: a rolled-back batch is taken again, and recorded once
			expired.forEach((boost) -> this.views.record(boost.views()));
			recorded += expired.size();
		}
		while (expired.size() == BATCH);
		return recorded;
	}

}
