package io.kindling.swipe.match;

import java.time.Instant;

/** The canonical match of a pair, as stored. */
public record MatchRef(long matchId, long userId1, long userId2, Instant matchedAt) {

	/** Whether the user is one of the pair. */
	public boolean has(long userId) {
		return userId == this.userId1 || userId == this.userId2;
	}

	/** The other person of the pair, as {@code userId} sees it. */
	public long otherThan(long userId) {
		return (userId == this.userId1) ? this.userId2 : this.userId1;
	}

}
