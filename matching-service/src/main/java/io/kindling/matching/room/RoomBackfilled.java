package io.kindling.matching.room;

import java.time.Instant;

/**
 * A newcomer seated in a room of three that lost someone, its conversation written in
 * MySQL: told to the push feature (the newcomer's {@code matched}, the others'
 * {@code member_joined}) and to the room's conversation ({@code joined}).
 *
 * @param token the newcomer
 * @param at when the newcomer was seated
 * @param members how many sit in the room now, the newcomer included
 */
public record RoomBackfilled(String roomId, long conversationId, int roomType, long topicId, String token, Instant at,
		int members) {

}
