package io.kindling.matching.push;

import io.kindling.matching.room.RoomBackfilled;
import io.kindling.matching.session.Session;

/**
 * The body of a {@code member_joined} event, to the people already in a room when a
 * newcomer is seated in the seat someone left; what one instance tells all others over
 * Redis pub/sub too, with the newcomer's session key (never its token), so that each
 * instance tells only the others' streams.
 *
 * @param members how many sit in the room now, the newcomer included
 * @param newcomerKey the newcomer's session key (SHA-256 of its token)
 */
record MemberJoined(String roomId, long conversationId, int roomType, long topicId, int members, String newcomerKey) {

	static final String CHANNEL = "matching:member-joined";

	static MemberJoined of(RoomBackfilled seated) {
		return new MemberJoined(seated.roomId(), seated.conversationId(), seated.roomType(), seated.topicId(),
				seated.members(), Session.keyOf(seated.token()));
	}

	/** The event's body on a stream: the room and how many sit in it. */
	Body body() {
		return new Body(this.roomId, this.conversationId, this.roomType, this.topicId, this.members);
	}

	/** The event's id: one per room, since a room is backfilled once. */
	String eventId() {
		return this.roomId + EVENT_ID_SUFFIX;
	}

	static final String EVENT_ID_SUFFIX = "/member_joined";

	record Body(String roomId, long conversationId, int roomType, long topicId, int members) {

	}

}
