package io.kindling.matching.room;

import java.time.Instant;
import java.util.Optional;

import io.kindling.matching.queue.PoppedRoom;

/**
 * MySQL's side of the claims, the truth about rooms: which live room each participant
 * sits in. A Redis failover can lose claims; a seat it cannot lose.
 */
public interface RoomLedger {

	/**
	 * Writes a popped room: its conversation, its participants and their seats, and its
	 * {@code ROOM_FORMED} outbox row, in one transaction.
	 * @return the conversation id
	 * @throws SeatsTaken when a participant already sits in another live room (nothing
	 * written)
	 */
	long write(PoppedRoom room);

	/** The live room this participant sits in, if any. */
	Optional<LiveRoom> liveRoom(String token, Instant now);

	/**
	 * Ends the participant's seat in this room, whether or not the room is written yet.
	 */
	void leave(String token, String roomId, Instant now);

	/** Ends the participant's seat in whatever room it sits in. */
	void leaveAnyRoom(String token, Instant now);

}
