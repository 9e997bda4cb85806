package io.kindling.swipe.match;

/** Why a match ended; {@code MATCH_REMOVED} carries it as {@code reason}. */
public enum RemovalReason {

	/** One of the two unmatched ({@code DELETE /api/matches/{id}}). */
	UNMATCHED,

	/** One of the two blocked (or reported) the other. */
	BLOCKED,

	/** An operator banned one of the two ({@code removed_by} is the banned user). */
	BANNED

}
