package io.kindling.support.web;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.netflix.concurrency.limits.Limit;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The adaptive limit against a steady overload: answers that take eight times as long as
 * unloaded, for as long as it lasts, bring the limit down, a step per window, until no
 * more than Vegas's few (six at these limits) queue, and never below {@code min-limit};
 * once they are fast again it climbs back to its maximum. Time is the samples' own: each
 * window of answers starts 150 ms after the one before.
 */
class AdaptiveLimitTests {

	private static final Duration UNLOADED = Duration.ofMillis(5);

	private static final Duration QUEUEING = Duration.ofMillis(40);

	private Limit limit = limit(4);

	private long now = 1_000_000_000L;

	@Test
	void aSteadyQueueBringsTheLimitDownAndItsEndBringsItBack() {
		answer(UNLOADED, 20);
		assertThat(this.limit.getLimit()).as("unloaded, with every place taken").isEqualTo(16);

		List<Integer> underLoad = answer(QUEUEING, 60);
		assertThat(underLoad).as("one limit per window of slow answers").isSortedAccordingTo((a, b) -> b - a);
		// 6 at once, each answer eight times as long as unloaded: 6 × (1 - 1/8) = 5.25,
		// so about 6 queueing, which Vegas's rule allows
		assertThat(underLoad.get(underLoad.size() - 1)).as("after 9 s of a steady queue").isEqualTo(6);

		answer(UNLOADED, 20);
		assertThat(this.limit.getLimit()).as("fast again").isEqualTo(16);
	}

	@Test
	void theLimitComesDownNoLowerThanItsFloor() {
		this.limit = limit(10);
		answer(UNLOADED, 20);

		List<Integer> underLoad = answer(QUEUEING, 60);
		assertThat(underLoad).contains(10).allSatisfy((value) -> assertThat(value).isBetween(10, 16));
	}

	@Test
	void aFixedLimitDoesNotMove() {
		Limit fixed = LoadShedding.limit(new OverloadProperties(16, false, 4, Duration.ofSeconds(1)));
		for (int i = 0; i < 100; i++) {
			fixed.onSample(this.now, QUEUEING.toNanos(), 16, false);
			this.now += Duration.ofMillis(150).toNanos();
		}
		assertThat(fixed.getLimit()).isEqualTo(16);
	}

	private static Limit limit(int minLimit) {
		return LoadShedding.limit(new OverloadProperties(16, true, minLimit, Duration.ofSeconds(1)));
	}

	/**
	 * {@code windows} windows of 10 answers, each taking {@code rtt} with every place of
	 * the limit taken; the limit after each.
	 */
	private List<Integer> answer(Duration rtt, int windows) {
		List<Integer> limits = new ArrayList<>();
		for (int window = 0; window < windows; window++) {
			int inFlight = this.limit.getLimit();
			for (int i = 0; i < 10; i++) {
				this.limit.onSample(this.now, rtt.toNanos(), inFlight, false);
			}
			this.now += Duration.ofMillis(150).toNanos();
			limits.add(this.limit.getLimit());
		}
		return limits;
	}

}
