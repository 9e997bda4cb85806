package io.kindling.swipe.profile;

/** A profile call refused, and why; the web edge gives each reason its status. */
public final class ProfileRefused extends RuntimeException {

	public enum Reason {

		TOO_YOUNG, BAD_AGE_RANGE, NO_SUCH_PROFILE,
		/** The caller has no profile of their own yet, and the call needs one. */
		NO_PROFILE

	}

	private final Reason reason;

	ProfileRefused(Reason reason, String detail) {
		super(detail);
		this.reason = reason;
	}

	/** The caller has no profile yet; {@code needed} says what it is needed for. */
	public static ProfileRefused noProfile(String needed) {
		return new ProfileRefused(Reason.NO_PROFILE, "Create a profile (PUT /api/profile) " + needed + ".");
	}

	public Reason reason() {
		return this.reason;
	}

}
