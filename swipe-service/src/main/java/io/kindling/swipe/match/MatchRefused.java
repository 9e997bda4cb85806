package io.kindling.swipe.match;

/** A match call refused, and why; the web edge gives each reason its status. */
public final class MatchRefused extends RuntimeException {

	public enum Reason {

		NO_SUCH_MATCH

	}

	private final Reason reason;

	MatchRefused(Reason reason, String detail) {
		super(detail);
		this.reason = reason;
	}

	public Reason reason() {
		return this.reason;
	}

}
