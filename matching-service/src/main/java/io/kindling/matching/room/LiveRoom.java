package io.kindling.matching.room;

import java.time.Instant;

import io.kindling.matching.queue.TokenState;

/**
 * A room a participant is live in, as MySQL records it.
 *
 * @param liveUntil when the seat stops being live unless left sooner
 * @param fallback true for a room formed in a fallback queue
 */
public record LiveRoom(String roomId, long conversationId, int roomType, long topicId, Instant formedAt,
		Instant liveUntil, boolean fallback) {

	public LiveRoom(String roomId, long conversationId, int roomType, long topicId, Instant formedAt,
			Instant liveUntil) {
		this(roomId, conversationId, roomType, topicId, formedAt, liveUntil, false);
	}

	/** The claim of a participant of this room. */
	TokenState.Matched claim() {
		return new TokenState.Matched(this.roomId, this.conversationId, this.roomType, this.topicId, this.formedAt,
				this.fallback, false);
	}

}
