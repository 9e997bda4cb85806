package io.kindling.matching.push;

import io.kindling.matching.join.MatchingStatus;
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

	/**
	 * The event for a stream that opened after the newcomer came: it goes to that one
	 * stream, so it names no newcomer.
	 * @param members how many sit in the room now
	 */
	static MemberJoined of(MatchingStatus.Matched room, int members) {
		return new MemberJoined(room.roomId(), room.conversationId(), room.roomType(), room.topicId(), members, "");
	}

	/** The room an event's id names: a {@code matched}'s or a {@code member_joined}'s. */
	static String roomOf(String eventId) {
		return eventId.endsWith(EVENT_ID_SUFFIX) ? eventId.substring(0, eventId.length() - EVENT_ID_SUFFIX.length())
				: eventId;
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
