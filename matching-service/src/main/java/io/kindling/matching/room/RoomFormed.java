package io.kindling.matching.room;

import java.time.Instant;
import java.util.List;

/**
 * A room whose conversation was written: told to the push feature, which tells the
 * participants' streams on every instance.
 *
 * @param tokens the participants still in the room
 */
public record RoomFormed(String roomId, long conversationId, int roomType, long topicId, Instant formedAt,
		List<String> tokens) {

}
