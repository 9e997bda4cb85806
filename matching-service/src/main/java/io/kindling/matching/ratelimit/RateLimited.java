package io.kindling.matching.ratelimit;

import java.time.Duration;

/**
 * Too many requests from one address in this window; try again after {@code retryAfter}.
 */
public class RateLimited extends RuntimeException {

	private final Duration retryAfter;

	RateLimited(Duration retryAfter) {
		super("too many requests from this address; retry in " + Math.max(1, retryAfter.toSeconds()) + " s");
		this.retryAfter = retryAfter;
	}

	/** Whole seconds, at least one, as {@code Retry-After} wants them. */
	public long retryAfterSeconds() {
		return Math.max(1, (this.retryAfter.toMillis() + 999) / 1000);
	}

}
