package io.kindling.swipe.profile;

import java.time.Duration;

/** A profile call refused, and why; the web edge gives each reason its status. */
public final class ProfileRefused extends RuntimeException {

	public enum Reason {

		TOO_YOUNG, BAD_AGE_RANGE, NO_SUCH_PROFILE,
		/** The caller has no profile of their own yet, and the call needs one. */
		NO_PROFILE,
		/** The caller moved to another cell too often in the last hour. */
		TOO_MANY_LOCATION_CHANGES

	}

	private final Reason reason;

	private final long retryAfterSeconds;

	ProfileRefused(Reason reason, String detail) {
		this(reason, detail, 0);
	}

	private ProfileRefused(Reason reason, String detail, long retryAfterSeconds) {
		super(detail);
		this.reason = reason;
		this.retryAfterSeconds = retryAfterSeconds;
	}

	/** The caller has no profile yet; {@code needed} says what it is needed for. */
	public static ProfileRefused noProfile(String needed) {
		return new ProfileRefused(Reason.NO_PROFILE, "Create a profile (PUT /api/profile) " + needed + ".");
	}

	static ProfileRefused tooManyLocationChanges(int perHour, Duration retryAfter) {
		return new ProfileRefused(Reason.TOO_MANY_LOCATION_CHANGES,
				"Your location can change " + perHour + " times an hour; keep the one you have for now.",
				Math.max(1, retryAfter.toSeconds() + ((retryAfter.toNanosPart() > 0) ? 1 : 0)));
	}

	public Reason reason() {
		return this.reason;
	}

	/** For too many location changes: whole seconds until the next is allowed; else 0. */
	public long retryAfterSeconds() {
		return this.retryAfterSeconds;
	}

}
