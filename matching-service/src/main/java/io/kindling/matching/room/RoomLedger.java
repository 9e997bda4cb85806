package io.kindling.matching.room;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;

import io.kindling.matching.queue.OpenSeat;
import io.kindling.matching.queue.PoppedRoom;
import io.kindling.matching.queue.QueueEntry;

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

	/**
	 * Seats a newcomer in the seat a leave reopened in a written room of three: its seat,
	 * its participant row, the conversation marked backfilled, and its
	 * {@code ROOM_BACKFILLED} outbox row, in one transaction.
	 * @throws SeatGone when the room ended, emptied or was backfilled already (nothing
	 * written)
	 * @throws SeatsTaken when the newcomer already sits in another live room (nothing
	 * written)
	 */
	Backfilled backfill(OpenSeat seat, QueueEntry newcomer, Instant now);

	/** How many sit in the room now (seated, not left, not run out). */
	int seated(String roomId, Instant now);

	/**
	 * How many sit in the room now, once a newcomer was seated in it; empty for a room
	 * never backfilled.
	 */
	OptionalInt seatedIfBackfilled(String roomId, Instant now);

	/**
	 * @param members how many sit in the room now, the newcomer included
	 * @param liveUntil when the room's seats run out
	 */
	record Backfilled(int members, Instant liveUntil) {

	}

}
