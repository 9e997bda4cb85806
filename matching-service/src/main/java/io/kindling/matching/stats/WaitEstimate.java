package io.kindling.matching.stats;

import java.time.Duration;

/**
 * The estimated wait: how long until a room holds someone who joins a queue now (or who
 * waits in it already), if people keep arriving at the queue's recent rate, oldest first.
 * A point estimate, not a promise.
 *
 * <p>
 * The caller's group is the people not yet in a room up to and including the caller
 * ({@code waiting mod size}, the caller last); the group needs {@code size - group} more
 * arrivals, which take {@code n / rate} on average. A size-3 group of two forms a room of
 * two once its oldest has waited {@code fallback-after}; a caller alone in a size-3 group
 * needs one arrival and then that fallback, or two arrivals, whichever comes first. Never
 * more than what is left of {@code wait-timeout}: past it one is dropped, not matched.
 *
 * @param fallbackAfter the size-3 fallback
 * @param waitTimeout the wait timeout
 */
record WaitEstimate(Duration fallbackAfter, Duration waitTimeout) {

	/**
	 * For someone joining now.
	 * @param waiting how many wait in the queue
	 * @param oldestWaited how long its oldest has waited
	 * @param arrivalsPerSecond the queue's recent arrival rate
	 */
	Duration forNewcomer(int size, int waiting, Duration oldestWaited, double arrivalsPerSecond) {
		int group = waiting % size + 1;
		return estimate(size, group, (group == 1) ? Duration.ZERO : oldestWaited, Duration.ZERO, arrivalsPerSecond);
	}

	/**
	 * For someone in the queue already, counted among {@code waiting} as its last.
	 * @param waited how long the caller has waited
	 */
	Duration forWaiting(int size, int waiting, Duration oldestWaited, Duration waited, double arrivalsPerSecond) {
		int group = (Math.max(waiting, 1) - 1) % size + 1;
		Duration headWaited = (group == 1) ? waited : max(oldestWaited, waited);
		return estimate(size, group, headWaited, waited, arrivalsPerSecond);
	}

	private Duration estimate(int size, int group, Duration headWaited, Duration waited, double arrivalsPerSecond) {
		if (group >= size) {
			return Duration.ZERO;
		}
		double fallbackIn = Math.max(0, seconds(this.fallbackAfter.minus(headWaited)));
		double seconds;
		if (size == 3 && group == 2) {
			seconds = Math.min(arrivals(1, arrivalsPerSecond), fallbackIn);
		}
		else if (size == 3) {
			seconds = Math.min(arrivals(2, arrivalsPerSecond), Math.max(arrivals(1, arrivalsPerSecond), fallbackIn));
		}
		else {
			seconds = arrivals(size - group, arrivalsPerSecond);
		}
		double left = Math.max(0, seconds(this.waitTimeout.minus(waited)));
		return Duration.ofMillis(Math.round(Math.min(seconds, left) * 1000));
	}

	/** Expected seconds until {@code count} more people arrive; infinite with none. */
	private static double arrivals(int count, double perSecond) {
		return (perSecond > 0) ? count / perSecond : Double.POSITIVE_INFINITY;
	}

	private static double seconds(Duration duration) {
		return duration.toNanos() / 1e9;
	}

	private static Duration max(Duration a, Duration b) {
		return (a.compareTo(b) >= 0) ? a : b;
	}

}
