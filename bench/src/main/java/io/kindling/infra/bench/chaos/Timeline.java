package io.kindling.infra.bench.chaos;

import java.time.Duration;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * When something succeeded: each success's time, to find the longest stretch without one.
 */
final class Timeline {

	private final ConcurrentSkipListSet<Long> times = new ConcurrentSkipListSet<>();

	void add(long nanoTime) {
		// two at the same nanosecond are one success for the gaps
		this.times.add(nanoTime);
	}

	boolean after(long nanoTime) {
		return this.times.higher(nanoTime) != null;
	}

	int size() {
		return this.times.size();
	}

	/** The longest time between two successes in [from, to], its ends included. */
	Duration longestGap(long from, long to) {
		long previous = from;
		long longest = 0;
		for (long time : this.times.subSet(from, to)) {
			longest = Math.max(longest, time - previous);
			previous = time;
		}
		return Duration.ofNanos(Math.max(longest, to - previous));
	}

}
