package io.kindling.swipe.block;

/** A block refused, and why; the web edge gives each reason its status. */
public final class BlockRefused extends RuntimeException {

	public enum Reason {

		/** No user id, not a user id, or the caller's own. */
		BAD_BLOCK,
		/** Nobody with a profile has this id. */
		UNKNOWN_USER

	}

	private final Reason reason;

	BlockRefused(Reason reason, String detail) {
		super(detail);
		this.reason = reason;
	}

	public static BlockRefused badBlock(String why) {
		return new BlockRefused(Reason.BAD_BLOCK, why);
	}

	public static BlockRefused unknownUser(long userId) {
		return new BlockRefused(Reason.UNKNOWN_USER, "User " + userId + " has no profile.");
	}

	public Reason reason() {
		return this.reason;
	}

}
