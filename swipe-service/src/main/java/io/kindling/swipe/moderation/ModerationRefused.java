package io.kindling.swipe.moderation;

/** An operators' call refused, and why; the web edge gives each reason its status. */
public final class ModerationRefused extends RuntimeException {

	public enum Reason {

		/** No report has this id. */
		NO_SUCH_REPORT,
		/** The report was resolved already. */
		REPORT_RESOLVED,
		/** A ban's user id or expiry cannot be used. */
		BAD_BAN,
		/** The user is banned already. */
		ALREADY_BANNED,
		/** The user is not banned. */
		NO_SUCH_BAN

	}

	private final Reason reason;

	ModerationRefused(Reason reason, String detail) {
		super(detail);
		this.reason = reason;
	}

	public Reason reason() {
		return this.reason;
	}

}
