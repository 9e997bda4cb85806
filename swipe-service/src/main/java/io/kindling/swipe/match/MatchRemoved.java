package io.kindling.swipe.match;

import java.time.Instant;

/**
 * A match ended (unmatch or block), published once inside the service after the
 * transaction that ended it committed, for listeners that act on it there. Its
 * {@code MATCH_REMOVED} outbox row ({@link MatchOutbox}) and the push to the two people's
 * event streams ({@link MatchPush}) were written or queued in that transaction.
 *
 * @param userId1 the lower user id of the pair
 * @param userId2 the higher one
 * @param removedBy who unmatched or blocked
 */
public record MatchRemoved(long matchId, long userId1, long userId2, Instant matchedAt, Instant removedAt,
		long removedBy, RemovalReason reason) {

	/** The other person of the pair, as {@code userId} sees it. */
	public long otherThan(long userId) {
		return (userId == this.userId1) ? this.userId2 : this.userId1;
	}

}
