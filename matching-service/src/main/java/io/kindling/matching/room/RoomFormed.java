package io.kindling.matching.room;

import java.time.Instant;
import java.util.List;

import io.kindling.matching.queue.TokenState;

/**
 * A room whose conversation was written: told to the push feature, which tells the
 * participants' streams on every instance.
 *
 * @param tokens the participants still in the room
 */
public record RoomFormed(String roomId, long conversationId, int roomType, long topicId, Instant formedAt,
		List<String> tokens) {

	/** The claim of a participant of this room. */
	TokenState.Matched claim() {
		return new TokenState.Matched(this.roomId, this.conversationId, this.roomType, this.topicId, this.formedAt);
	}

}
