package io.kindling.swipe.swipe;

/** A swipe or a rewind refused, and why; the web edge gives each reason its status. */
public final class SwipeRefused extends RuntimeException {

	public enum Reason {

		BAD_IDEMPOTENCY_KEY, BAD_SWIPE, SELF_SWIPE, UNKNOWN_TARGET, ALREADY_SWIPED, IDEMPOTENCY_KEY_REUSED, DAILY_LIMIT,
		NOTHING_TO_REWIND, REWIND_OF_MATCH

	}

	private final Reason reason;

	private final long retryAfterSeconds;

	SwipeRefused(Reason reason, String detail) {
		this(reason, detail, 0);
	}

	SwipeRefused(Reason reason, String detail, long retryAfterSeconds) {
		super(detail);
		this.reason = reason;
		this.retryAfterSeconds = retryAfterSeconds;
	}

	public Reason reason() {
		return this.reason;
	}

	/** For a daily limit: whole seconds until it resets, at least one; else 0. */
	public long retryAfterSeconds() {
		return this.retryAfterSeconds;
	}

}
