package io.kindling.matching.stats;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class WaitEstimateTests {

	private final WaitEstimate estimate = new WaitEstimate(Duration.ofSeconds(60), Duration.ofMinutes(5));

	@Test
	void aNewcomerWhoCompletesARoomWaitsNothing() {
		assertThat(this.estimate.forNewcomer(2, 1, Duration.ofSeconds(9), 0)).isZero();
		assertThat(this.estimate.forNewcomer(3, 2, Duration.ofSeconds(9), 0)).isZero();
		assertThat(this.estimate.forNewcomer(2, 3, Duration.ofSeconds(9), 0)).isZero();
	}

	@Test
	void aNewcomerToASizeTwoQueueWaitsForTheNextArrival() {
		assertThat(this.estimate.forNewcomer(2, 0, Duration.ZERO, 0.5)).isEqualTo(Duration.ofSeconds(2));
		assertThat(this.estimate.forNewcomer(2, 2, Duration.ofSeconds(30), 0.1)).isEqualTo(Duration.ofSeconds(10));
	}

	@Test
	void nobodyArrivingMeansTheTimeout() {
		assertThat(this.estimate.forNewcomer(2, 0, Duration.ZERO, 0)).isEqualTo(Duration.ofMinutes(5));
		assertThat(this.estimate.forWaiting(2, 1, Duration.ofSeconds(40), Duration.ofSeconds(40), 0))
			.isEqualTo(Duration.ofSeconds(260));
		assertThat(this.estimate.forNewcomer(2, 0, Duration.ZERO, 0.001)).isEqualTo(Duration.ofMinutes(5));
	}

	@Test
	void aSizeThreePairFallsBackWhenNobodyComesFirst() {
		// the second of a pair whose first waited 45 s: 15 s to the fallback, 20 s to an
		// arrival
		assertThat(this.estimate.forNewcomer(3, 1, Duration.ofSeconds(45), 0.05)).isEqualTo(Duration.ofSeconds(15));
		assertThat(this.estimate.forNewcomer(3, 1, Duration.ofSeconds(45), 0.5)).isEqualTo(Duration.ofSeconds(2));
		assertThat(this.estimate.forWaiting(3, 2, Duration.ofSeconds(70), Duration.ofSeconds(5), 0)).isZero();
	}

	@Test
	void aSizeThreeNewcomerAloneNeedsOneArrivalAndTheFallbackOrTwoArrivals() {
		// one arrival in 10 s, then the fallback at 60 s; two arrivals in 20 s
		assertThat(this.estimate.forNewcomer(3, 0, Duration.ZERO, 0.1)).isEqualTo(Duration.ofSeconds(20));
		// one arrival in 100 s, past the fallback: then the pair forms at once
		assertThat(this.estimate.forNewcomer(3, 0, Duration.ZERO, 0.01)).isEqualTo(Duration.ofSeconds(100));
		// fast arrivals: two in 2 s
		assertThat(this.estimate.forNewcomer(3, 0, Duration.ZERO, 1)).isEqualTo(Duration.ofSeconds(2));
	}

	@Test
	void aWaitingCallerCountsItselfLastAndItsOwnWait() {
		// alone in a size-3 queue for 50 s, one arrival in 5 s: then 5 s more to the
		// fallback... the arrival comes at 55 s, the fallback at 60 s: 10 s
		assertThat(this.estimate.forWaiting(3, 1, Duration.ofSeconds(50), Duration.ofSeconds(50), 0.2))
			.isEqualTo(Duration.ofSeconds(10));
		assertThat(this.estimate.forWaiting(2, 1, Duration.ofSeconds(3), Duration.ofSeconds(3), 0.25))
			.isEqualTo(Duration.ofSeconds(4));
	}

}
