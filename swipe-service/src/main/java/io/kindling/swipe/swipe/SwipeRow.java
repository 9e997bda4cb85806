package io.kindling.swipe.swipe;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/** One {@code swipe_history} row, as TX 1 and the finishers read it. */
record SwipeRow(long swipeId, String requestId, String requestHash, long userId, long targetUserId, Action action,
		@Nullable Integer responseStatus, @Nullable Long matchId, @Nullable Instant matchedAt, Instant createdAt,
		@Nullable Instant undoneAt) {

	static final int NOT_MATCHED = 0;

	static final int MATCHED = 1;

	boolean finished() {
		return this.responseStatus != null;
	}

	SwipeRow notMatched() {
		return new SwipeRow(this.swipeId, this.requestId, this.requestHash, this.userId, this.targetUserId, this.action,
				NOT_MATCHED, null, null, this.createdAt, this.undoneAt);
	}

	SwipeRow matched(long matchId, Instant matchedAt) {
		return new SwipeRow(this.swipeId, this.requestId, this.requestHash, this.userId, this.targetUserId, this.action,
				MATCHED, matchId, matchedAt, this.createdAt, this.undoneAt);
	}

	/** The persisted response: the same bytes for the first answer and every replay. */
	SwipeResponse response() {
		if (this.responseStatus == null) {
			throw new IllegalStateException("swipe " + this.swipeId + " is not finished");
		}
		return new SwipeResponse(this.swipeId, this.action.name(), this.responseStatus == MATCHED, this.matchId,
				this.matchedAt);
	}

}
