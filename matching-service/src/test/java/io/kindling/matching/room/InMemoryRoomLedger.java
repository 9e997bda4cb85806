package io.kindling.matching.room;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import io.kindling.matching.queue.OpenSeat;
import io.kindling.matching.queue.PoppedRoom;
import io.kindling.matching.queue.QueueEntry;
import io.kindling.matching.session.Session;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessResourceFailureException;

/**
 * The room ledger in memory, as the {@code seats} table decides: a participant sits in
 * one live room at most, a written room seats nobody who left it before it was written,
 * and a leave ends only its own participant's seat. MySQL can be made to fail.
 */
final class InMemoryRoomLedger implements RoomLedger {

	private final Duration roomTtl;

	private final Map<String, Seat> seats = new HashMap<>();

	private final Map<String, Written> rooms = new HashMap<>();

	/** Each backfilled room's newcomer, by room id. */
	private final Map<String, Newcomer> backfilled = new HashMap<>();

	private boolean away;

	private @Nullable Runnable duringNextWrite;

	InMemoryRoomLedger(Duration roomTtl) {
		this.roomTtl = roomTtl;
	}

	private record Seat(String roomId, Instant liveUntil, @Nullable Instant leftAt) {

		boolean liveAt(Instant now) {
			return this.leftAt == null && this.liveUntil.isAfter(now);
		}

	}

	/** Who was seated in a backfilled room, and when. */
	private record Newcomer(String key, Instant at) {

	}

	/** A written room, with its conversation id. */
	record Written(PoppedRoom room, long conversationId) {

	}

	@Override
	public long write(PoppedRoom room) {
		failIfAway();
		Runnable meanwhile = this.duringNextWrite;
		this.duringNextWrite = null;
		if (meanwhile != null) {
			meanwhile.run();
		}
		Instant now = room.formedAt();
		Map<String, LiveRoom> taken = new HashMap<>();
		for (String token : room.tokens()) {
			Seat seat = this.seats.get(Session.keyOf(token));
			if (seat != null && !seat.roomId().equals(room.roomId()) && seat.liveAt(now)) {
				taken.put(Session.keyOf(token), live(Session.keyOf(token), seat));
			}
		}
		if (!taken.isEmpty()) {
			throw new SeatsTaken(taken);
		}
		long conversationId = this.rooms.size() + 1;
		this.rooms.put(room.roomId(), new Written(room, conversationId));
		for (String token : room.tokens()) {
			// one who left this room before it was written stays out of it
			this.seats.compute(Session.keyOf(token),
					(key, seat) -> (seat != null && seat.roomId().equals(room.roomId())) ? seat
							: new Seat(room.roomId(), now.plus(this.roomTtl), null));
		}
		return conversationId;
	}

	@Override
	public Optional<LiveRoom> liveRoom(String token, Instant now) {
		failIfAway();
		Seat seat = this.seats.get(Session.keyOf(token));
		return (seat != null && seat.liveAt(now) && this.rooms.containsKey(seat.roomId()))
				? Optional.of(live(Session.keyOf(token), seat)) : Optional.empty();
	}

	@Override
	public void leave(String token, String roomId, Instant now) {
		failIfAway();
		this.seats.compute(Session.keyOf(token),
				(key, seat) -> (seat != null && seat.roomId().equals(roomId))
						? new Seat(roomId, seat.liveUntil(), (seat.leftAt() != null) ? seat.leftAt() : now)
						: new Seat(roomId, now, now));
	}

	@Override
	public void leaveAnyRoom(String token, Instant now) {
		failIfAway();
		this.seats.computeIfPresent(Session.keyOf(token),
				(key, seat) -> (seat.leftAt() == null) ? new Seat(seat.roomId(), seat.liveUntil(), now) : seat);
	}

	@Override
	public Backfilled backfill(OpenSeat seat, QueueEntry newcomer, Instant now) {
		failIfAway();
		Written written = this.rooms.get(seat.roomId());
		int seated = seated(seat.roomId(), now);
		if (written == null || written.room().roomType() != 3 || this.backfilled.containsKey(seat.roomId())
				|| seated == 0 || seated >= 3) {
			throw new SeatGone("room " + seat.roomId() + " ended or was backfilled already");
		}
		Seat mine = this.seats.get(Session.keyOf(newcomer.token()));
		if (mine != null && mine.liveAt(now)) {
			throw new SeatsTaken(Map.of(Session.keyOf(newcomer.token()), live(Session.keyOf(newcomer.token()), mine)));
		}
		this.backfilled.put(seat.roomId(), new Newcomer(Session.keyOf(newcomer.token()), now));
		Instant liveUntil = written.room().formedAt().plus(this.roomTtl);
		this.seats.put(Session.keyOf(newcomer.token()), new Seat(seat.roomId(), liveUntil, null));
		return new Backfilled(seated + 1, liveUntil);
	}

	@Override
	public int seated(String roomId, Instant now) {
		failIfAway();
		return (int) this.seats.values()
			.stream()
			.filter((seat) -> seat.roomId().equals(roomId) && seat.liveAt(now))
			.count();
	}

	@Override
	public OptionalInt seatedIfBackfilled(String roomId, Instant now) {
		failIfAway();
		return this.backfilled.containsKey(roomId) ? OptionalInt.of(seated(roomId, now)) : OptionalInt.empty();
	}

	/** MySQL stops (or starts again) answering. */
	void away(boolean away) {
		this.away = away;
	}

	/**
	 * Something that happens while MySQL writes the next room: a leave, a failover of
	 * Redis.
	 */
	void duringNextWrite(Runnable meanwhile) {
		this.duringNextWrite = meanwhile;
	}

	/** The rooms written, in order. */
	List<Written> written() {
		return new ArrayList<>(this.rooms.values()).stream()
			.sorted((a, b) -> Long.compare(a.conversationId(), b.conversationId()))
			.toList();
	}

	/** The room this token sits in live now, by room id. */
	@Nullable String liveSeat(String token, Instant now) {
		Seat seat = this.seats.get(Session.keyOf(token));
		return (seat != null && seat.liveAt(now)) ? seat.roomId() : null;
	}

	/** As MySQL tells it: the newcomer of a backfilled room by when it was seated. */
	private LiveRoom live(String key, Seat seat) {
		Written written = this.rooms.get(seat.roomId());
		PoppedRoom room = written.room();
		Newcomer newcomer = this.backfilled.get(room.roomId());
		boolean isNewcomer = newcomer != null && newcomer.key().equals(key);
		return new LiveRoom(room.roomId(), written.conversationId(), room.roomType(), room.queue().topicId(),
				isNewcomer ? newcomer.at() : room.formedAt(), seat.liveUntil(), room.topicFallback(), isNewcomer);
	}

	private void failIfAway() {
		if (this.away) {
			throw new DataAccessResourceFailureException("MySQL is away");
		}
	}

}
