package io.kindling.matching.room;

import java.time.Instant;

/**
 * A room a participant is live in, as MySQL records it.
 *
 * @param liveUntil when the seat stops being live unless left sooner
 */
public record LiveRoom(String roomId, long conversationId, int roomType, long topicId, Instant formedAt,
		Instant liveUntil) {

}
