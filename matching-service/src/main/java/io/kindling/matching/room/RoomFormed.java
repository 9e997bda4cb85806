package io.kindling.matching.room;

import java.time.Instant;
import java.util.List;

import io.kindling.matching.queue.TokenState;

/**
 * A room whose conversation was written: told to the push feature, which tells the
 * participants' streams on every instance.
 *
 * @param tokens the participants still in the room
 * @param formedAt when the room formed; for a room told again to its backfilled newcomer,
 * when the newcomer was seated
 * @param fallback true for a room formed in a fallback queue, whatever its people's
 * topics
 * @param backfilled true only for a room told again to the newcomer seated in it
 * ({@link LiveRoom#toldTo}); a room formed is told with {@link RoomBackfilled} to its
 * newcomer
 */
public record RoomFormed(String roomId, long conversationId, int roomType, long topicId, Instant formedAt,
		List<String> tokens, boolean fallback, boolean backfilled) {

	public RoomFormed(String roomId, long conversationId, int roomType, long topicId, Instant formedAt,
			List<String> tokens) {
		this(roomId, conversationId, roomType, topicId, formedAt, tokens, false);
	}

	public RoomFormed(String roomId, long conversationId, int roomType, long topicId, Instant formedAt,
			List<String> tokens, boolean fallback) {
		this(roomId, conversationId, roomType, topicId, formedAt, tokens, fallback, false);
	}

	/** The claim of a participant of this room. */
	TokenState.Matched claim() {
		return new TokenState.Matched(this.roomId, this.conversationId, this.roomType, this.topicId, this.formedAt,
				this.fallback, this.backfilled);
	}

}
