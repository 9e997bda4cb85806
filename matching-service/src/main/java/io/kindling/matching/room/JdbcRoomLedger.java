package io.kindling.matching.room;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;

import io.kindling.matching.queue.OpenSeat;
import io.kindling.matching.queue.PoppedRoom;
import io.kindling.matching.queue.QueueEntry;

import org.springframework.stereotype.Component;

/**
 * The room ledger on MySQL: the conversation's transaction and the {@code seats} table.
 */
@Component
class JdbcRoomLedger implements RoomLedger {

	private final ConversationWriter conversations;

	private final Seats seats;

	private final BackfillWriter backfills;

	JdbcRoomLedger(ConversationWriter conversations, Seats seats, BackfillWriter backfills) {
		this.conversations = conversations;
		this.seats = seats;
		this.backfills = backfills;
	}

	@Override
	public long write(PoppedRoom room) {
		return this.conversations.write(room);
	}

	@Override
	public Optional<LiveRoom> liveRoom(String token, Instant now) {
		return this.seats.liveRoom(token, now);
	}

	@Override
	public void leave(String token, String roomId, Instant now) {
		this.seats.leave(token, roomId, now);
	}

	@Override
	public void leaveAnyRoom(String token, Instant now) {
		this.seats.leaveAnyRoom(token, now);
	}

	@Override
	public Backfilled backfill(OpenSeat seat, QueueEntry newcomer, Instant now) {
		return this.backfills.write(seat, newcomer, now);
	}

	@Override
	public int seated(String roomId, Instant now) {
		return this.seats.seated(roomId, now);
	}

	@Override
	public OptionalInt seatedIfBackfilled(String roomId, Instant now) {
		return this.backfills.seatedIfBackfilled(roomId, now);
	}

}
