package io.kindling.matching.room;

import java.time.Instant;
import java.util.List;

import io.kindling.matching.queue.TokenState;

/**
 * A room a participant is live in, as MySQL records it.
 *
 * @param matchedAt when the participant was seated: the room's forming, or for the
 * newcomer of a backfilled room its seating
 * @param liveUntil when the seat stops being live unless left sooner
 * @param fallback true for a room formed in a fallback queue
 * @param backfilled true when the participant is the newcomer seated in the seat someone
 * left ({@code conversations.backfilled_key})
 */
public record LiveRoom(String roomId, long conversationId, int roomType, long topicId, Instant matchedAt,
		Instant liveUntil, boolean fallback, boolean backfilled) {

	public LiveRoom(String roomId, long conversationId, int roomType, long topicId, Instant matchedAt,
			Instant liveUntil) {
		this(roomId, conversationId, roomType, topicId, matchedAt, liveUntil, false, false);
	}

	/** The claim of this participant in this room. */
	TokenState.Matched claim() {
		return new TokenState.Matched(this.roomId, this.conversationId, this.roomType, this.topicId, this.matchedAt,
				this.fallback, this.backfilled);
	}

	/** The room told again to this participant, as its claim says it. */
	RoomFormed toldTo(String token) {
		return new RoomFormed(this.roomId, this.conversationId, this.roomType, this.topicId, this.matchedAt,
				List.of(token), this.fallback, this.backfilled);
	}

}
