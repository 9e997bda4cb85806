package io.kindling.swipe.boost;

import java.time.Duration;
import java.time.Instant;

/** One boost per cooldown period: the next one is possible at {@code availableAt}. */
public final class BoostCooldown extends RuntimeException {

	private final long retryAfterSeconds;

	BoostCooldown(Instant availableAt, Duration retryAfter) {
		super("The next boost is possible at " + availableAt + ".");
		this.retryAfterSeconds = Math.max(1, retryAfter.toSeconds() + ((retryAfter.toMillisPart() > 0) ? 1 : 0));
	}

	/** Whole seconds until the next boost, at least one. */
	public long retryAfterSeconds() {
		return this.retryAfterSeconds;
	}

}
