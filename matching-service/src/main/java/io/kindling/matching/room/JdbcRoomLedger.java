package io.kindling.matching.room;

import java.time.Instant;
import java.util.Optional;

import io.kindling.matching.queue.PoppedRoom;

import org.springframework.stereotype.Component;

/**
 * The room ledger on MySQL: the conversation's transaction and the {@code seats} table.
 */
@Component
class JdbcRoomLedger implements RoomLedger {

	private final ConversationWriter conversations;

	private final Seats seats;

	JdbcRoomLedger(ConversationWriter conversations, Seats seats) {
		this.conversations = conversations;
		this.seats = seats;
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

}
