package io.kindling.matching.room;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

import io.kindling.matching.MatchingProperties;
import io.kindling.matching.ban.BanList;
import io.kindling.matching.queue.ActiveQueues;
import io.kindling.matching.queue.ClaimWaitingScript;
import io.kindling.matching.queue.ConfirmRoomScript;
import io.kindling.matching.queue.FormRoomScript;
import io.kindling.matching.queue.MatchQueue;
import io.kindling.matching.queue.PoppedRoom;
import io.kindling.matching.queue.QueueEntry;
import io.kindling.matching.queue.RestoreRoomScript;
import io.kindling.matching.queue.SwapClaimScript;
import io.kindling.matching.queue.SwapClaimScript.Swap;
import io.kindling.matching.queue.TokenClaims;
import io.kindling.matching.queue.TokenState;
import io.kindling.matching.session.Session;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.TransactionException;

/**
 * Joins and forms rooms, step by step across slots (each step one atomic script on one
 * slot; {@code docs/rooms-on-cluster.md} tells what a crash between two leaves): a
 * token's claim first, then its queue entry; a pop in the queue's slot, then each
 * member's claim moved by compare-and-set, then the conversation in MySQL (which refuses
 * a participant already in a live room), then the claims confirmed. Joins, polls and the
 * sweeper all come here.
 */
@Service
public class RoomFormer {

	/**
	 * How long a step between two slots may take before a poll takes it for lost: a
	 * waiting claim without its entry (or a popped record of it) in its queue is set
	 * idle, a room claim still being written is settled from MySQL. Longer than a join
	 * takes between its claim and its entry, or a room between its pop and its
	 * confirmation.
	 */
	public static final Duration ORPHAN_GRACE = Duration.ofSeconds(10);

	private static final Logger log = LoggerFactory.getLogger(RoomFormer.class);

	private final ClaimWaitingScript claimWaiting;

	private final FormRoomScript formRoom;

	private final SwapClaimScript swapClaims;

	private final RestoreRoomScript restoreRoom;

	private final ConfirmRoomScript confirmRoom;

	private final TokenClaims claims;

	private final BanList bans;

	private final ActiveQueues activeQueues;

	private final ConversationWriter conversations;

	private final Seats seats;

	private final ApplicationEventPublisher events;

	private final RoomMetrics metrics;

	private final Clock clock;

	private final MatchingProperties properties;

	RoomFormer(ClaimWaitingScript claimWaiting, FormRoomScript formRoom, SwapClaimScript swapClaims,
			RestoreRoomScript restoreRoom, ConfirmRoomScript confirmRoom, TokenClaims claims, BanList bans,
			ActiveQueues activeQueues, ConversationWriter conversations, Seats seats, ApplicationEventPublisher events,
			RoomMetrics metrics, Clock clock, MatchingProperties properties) {
		this.claimWaiting = claimWaiting;
		this.formRoom = formRoom;
		this.swapClaims = swapClaims;
		this.restoreRoom = restoreRoom;
		this.confirmRoom = confirmRoom;
		this.claims = claims;
		this.bans = bans;
		this.activeQueues = activeQueues;
		this.conversations = conversations;
		this.seats = seats;
		this.events = events;
		this.metrics = metrics;
		this.clock = clock;
		this.properties = properties;
	}

	/**
	 * What a join did.
	 *
	 * @param joined false when the token already held a claim
	 * @param held the claim the token holds after the call (its own waiting claim when
	 * joined)
	 * @param formed the room the join formed, if any: it holds the oldest in the queue,
	 * which may or may not include the joiner
	 */
	public record Attempt(boolean joined, TokenState held, Optional<RoomFormed> formed) {

	}

	/**
	 * Claims the token (refused if it holds a claim: a waiting claim left behind by a
	 * crash or a failover is repaired first), then puts its entry in the queue and tries
	 * to form a room in one call.
	 * @param now when the token begins to wait
	 */
	public Attempt join(String token, MatchQueue queue, Instant now) {
		TokenState.Waiting waiting = new TokenState.Waiting(queue, now, newJoinId());
		ClaimWaitingScript.Outcome outcome = this.claimWaiting.claim(token, waiting);
		if (!outcome.claimed() && outcome.held() instanceof TokenState.Waiting held
				&& repairIfOrphaned(token, held, queue)) {
			outcome = this.claimWaiting.claim(token, waiting);
		}
		if (!outcome.claimed()) {
			return new Attempt(false, outcome.held(), Optional.empty());
		}
		FormRoomScript.Result result = this.formRoom.join(queue, waiting.entry(token), outcome.recentPartners(), now);
		return new Attempt(true, waiting, settle(queue, result, now).formed());
	}

	/**
	 * A waiting token's poll: tries to form a room from its queue, and sets the claim
	 * idle if its queue no longer holds it (lost in a crash or a failover) past the
	 * grace.
	 */
	public void poll(String token, TokenState.Waiting waiting) {
		Instant now = now();
		FormRoomScript.Result result = this.formRoom.form(waiting.queue(), now, Optional.of(waiting.entry(token)));
		settle(waiting.queue(), result, now);
		// a join between its claim and its entry looks the same: give it time
		if (result.place() == FormRoomScript.Place.NONE && pastGrace(waiting, now)) {
			setIdle(token, waiting);
		}
	}

	/**
	 * A join refused by a waiting claim: refused changes nothing, unless the claim is
	 * lost, its entry in no queue. A join of the same queue again takes a lost claim at
	 * once: it is the retry of a join that failed between its claim and its entry (a
	 * {@code 503}), and a join still on its way between the two ends waiting in that
	 * queue all the same. A join of another queue waits out the grace, so as not to undo
	 * a join that is still to answer.
	 */
	private boolean repairIfOrphaned(String token, TokenState.Waiting waiting, MatchQueue joining) {
		Instant now = now();
		boolean retry = waiting.queue().equals(joining);
		return (retry || pastGrace(waiting, now))
				&& this.formRoom.find(waiting.queue(), waiting.entry(token), now) == FormRoomScript.Place.NONE
				&& setIdle(token, waiting);
	}

	private static boolean pastGrace(TokenState.Waiting waiting, Instant now) {
		return !waiting.since().isAfter(now.minus(ORPHAN_GRACE));
	}

	private boolean setIdle(String token, TokenState.Waiting waiting) {
		boolean repaired = this.swapClaims.swap(Swap.toIdle(token, waiting));
		if (repaired) {
			this.metrics.repaired(waiting.queue());
		}
		return repaired;
	}

	/**
	 * An idle token's poll: a token that MySQL seats in a live room is in it, even when a
	 * Redis failover lost its claim. Best effort: while MySQL is away the poll answers
	 * from Redis alone.
	 * @return true when the claim was restored from MySQL
	 */
	public boolean recoverLiveRoom(String token) {
		Optional<LiveRoom> live;
		try {
			live = this.seats.liveRoom(token, now());
		}
		catch (DataAccessException | TransactionException ex) {
			log.debug("Could not look for a live room in MySQL", ex);
			return false;
		}
		boolean recovered = live.isPresent() && this.swapClaims.swap(new Swap(token, new TokenState.Idle(),
				matched(live.get()), Duration.between(now(), live.get().liveUntil())));
		if (recovered) {
			this.metrics.recovered();
		}
		return recovered;
	}

	/**
	 * A poll of a token whose room claim is still "being written" past the grace: the
	 * process writing it died, or a failover lost the confirmation. MySQL tells which: a
	 * live seat is the room, confirmed here; no seat once the pending TTL is over (by the
	 * service's clock, as the rules' times are) is no room, and the token is idle. Best
	 * effort, as {@link #recoverLiveRoom}.
	 * @return true when the claim changed
	 */
	public boolean settleBeingWritten(String token, TokenState.Forming forming) {
		Instant now = now();
		if (forming.matchedAt().isAfter(now.minus(ORPHAN_GRACE))) {
			return false;
		}
		Optional<LiveRoom> live;
		try {
			live = this.seats.liveRoom(token, now);
		}
		catch (DataAccessException | TransactionException ex) {
			log.debug("Could not look for a live room in MySQL", ex);
			return false;
		}
		if (live.isPresent()) {
			boolean recovered = this.swapClaims
				.swap(new Swap(token, forming, matched(live.get()), Duration.between(now, live.get().liveUntil())));
			if (recovered) {
				this.metrics.recovered();
			}
			return recovered;
		}
		boolean repaired = !forming.matchedAt().isAfter(now.minus(this.properties.roomPendingTtl()))
				&& this.swapClaims.swap(Swap.toIdle(token, forming));
		if (repaired) {
			this.metrics.repaired(forming.queue());
		}
		return repaired;
	}

	private static TokenState.Matched matched(LiveRoom live) {
		return new TokenState.Matched(live.roomId(), live.conversationId(), live.roomType(), live.topicId(),
				live.formedAt());
	}

	/**
	 * Forms at most one room from the queue.
	 * @return the room, when one formed and its conversation was written
	 */
	public Optional<RoomFormed> tryForm(MatchQueue queue) {
		Instant now = now();
		return settle(queue, this.formRoom.form(queue, now, Optional.empty()), now).formed();
	}

	/**
	 * Forms rooms from the queue until a call pops none, at most {@code limit} pops.
	 * @return how many rooms formed, and how many were left waiting after the last call
	 */
	public Sweep formAll(MatchQueue queue, int limit) {
		int formed = 0;
		for (int pops = 0; pops < limit; pops++) {
			Instant now = now();
			Settled settled = settle(queue, this.formRoom.form(queue, now, Optional.empty()), now);
			formed += settled.formed().isPresent() ? 1 : 0;
			if (!settled.popped()) {
				return new Sweep(formed, settled.stillWaiting());
			}
		}
		return new Sweep(formed, -1);
	}

	/**
	 * @param formed rooms formed and written
	 * @param stillWaiting how many the last call left in the queue (-1 when the limit
	 * stopped the sweep)
	 */
	public record Sweep(int formed, int stillWaiting) {

	}

	private record Settled(boolean popped, Optional<RoomFormed> formed, int stillWaiting) {

	}

	/**
	 * Finishes what a forming call began: the timed-out entries' claims go, and a popped
	 * room is seated, written and confirmed, or undone.
	 */
	private Settled settle(MatchQueue queue, FormRoomScript.Result result, Instant now) {
		this.metrics.timedOut(queue, result.timedOut().size());
		if (result.rematch()) {
			this.metrics.rematched(queue);
		}
		this.metrics.waiting(queue, result.stillWaiting());
		if (!result.timedOut().isEmpty()) {
			// only the claims of these very joins: one may have left and joined again
			this.swapClaims.swapAll(result.timedOut()
				.stream()
				.map((entry) -> Swap.toIdle(entry.token(), waiting(queue, entry)))
				.toList());
		}
		if (result.room().isEmpty()) {
			return new Settled(false, Optional.empty(), result.stillWaiting());
		}
		return new Settled(true, form(result.room().get(), result.stillWaiting()), result.stillWaiting());
	}

	private Optional<RoomFormed> form(PoppedRoom room, int stillWaiting) {
		MatchQueue queue = room.queue();
		List<QueueEntry> participants = room.participants();
		List<QueueEntry> banned = participants.stream()
			.filter((entry) -> this.bans.isSessionBanned(Session.keyOf(entry.token())))
			.toList();
		if (!banned.isEmpty()) {
			dropBanned(room, banned);
			return Optional.empty();
		}
		List<Boolean> moved = this.swapClaims.swapAll(participants.stream()
			.map((entry) -> new Swap(entry.token(), waiting(queue, entry), room.claim(entry),
					this.properties.roomPendingTtl()))
			.toList());
		List<QueueEntry> inRoom = new ArrayList<>();
		for (int i = 0; i < participants.size(); i++) {
			if (moved.get(i)) {
				inRoom.add(participants.get(i));
			}
		}
		if (inRoom.size() < participants.size()) {
			// someone left or joined elsewhere since their entry went in: the room cannot
			// form, the others go back to their places
			this.metrics.undone(queue, "left");
			putBack(room, inRoom, stillWaiting);
			return Optional.empty();
		}
		long conversationId;
		try {
			conversationId = this.conversations.write(room);
		}
		catch (SeatsTaken ex) {
			tellLiveRooms(room, ex.taken(), stillWaiting);
			return Optional.empty();
		}
		catch (DataAccessException | TransactionException ex) {
			// wasting one wait beats a conversation written twice: everyone goes back to
			// their place in the queue
			long restored = putBack(room, participants, stillWaiting);
			this.metrics.writeFailed(queue);
			log.warn(
					"Could not write the conversation of room {} (topic {}, size {}); {} participant(s) back in the queue",
					room.roomId(), queue.topicId(), queue.size(), restored, ex);
			return Optional.empty();
		}
		// MySQL seats them all now, and a seat is only ever ended by its own leave: a
		// claim not confirmed here left (its seat is ended), or expired or was lost (its
		// next poll finds the room in MySQL), or is back to the wait it was popped from
		// (a failover: it is told the room now). The participants become each other's
		// recent partners here, before a leave can free them to join again.
		List<Swap> toWritten = participants.stream()
			.map((entry) -> new Swap(entry.token(), room.claim(entry), room.claim(entry).written(conversationId),
					this.properties.roomTtl()))
			.toList();
		List<Boolean> confirmed = intoRoom(room, participants, toWritten, this.confirmRoom.confirm(room, conversationId,
				this.properties.roomTtl(), this.properties.rematchCooldown(), now()));
		List<String> stillInRoom = new ArrayList<>();
		for (int i = 0; i < participants.size(); i++) {
			if (confirmed.get(i)) {
				stillInRoom.add(participants.get(i).token());
			}
		}
		this.metrics.formed(room);
		RoomFormed formed = new RoomFormed(room.roomId(), conversationId, room.roomType(), queue.topicId(),
				room.formedAt(), stillInRoom);
		this.events.publishEvent(formed);
		return Optional.of(formed);
	}

	/**
	 * A banned session never sits in a room: it may have joined before its ban reached
	 * this instance's cache. Its claim goes and its entry with it; the others, whose
	 * claims were not moved yet, go back to their places.
	 */
	private void dropBanned(PoppedRoom room, List<QueueEntry> banned) {
		this.swapClaims
			.swapAll(banned.stream().map((entry) -> Swap.toIdle(entry.token(), waiting(room.queue(), entry))).toList());
		Set<QueueEntry> others = new HashSet<>(room.participants());
		banned.forEach(others::remove);
		this.activeQueues.touch(room.queue(), now());
		restore(room, others);
		this.metrics.undone(room.queue(), "banned");
	}

	/**
	 * MySQL refused the room: some sit in a live room that Redis lost (a failover). They
	 * are told that room, by their claim and a push; the others go back to their places.
	 */
	private void tellLiveRooms(PoppedRoom room, Map<String, LiveRoom> taken, int stillWaiting) {
		Instant now = now();
		List<QueueEntry> others = new ArrayList<>();
		List<QueueEntry> seated = new ArrayList<>();
		for (QueueEntry entry : room.participants()) {
			(taken.containsKey(Session.keyOf(entry.token())) ? seated : others).add(entry);
		}
		List<Swap> toLive = seated.stream().map((entry) -> {
			LiveRoom live = taken.get(Session.keyOf(entry.token()));
			return new Swap(entry.token(), room.claim(entry), matched(live), Duration.between(now, live.liveUntil()));
		}).toList();
		List<Boolean> swapped = intoRoom(room, seated, toLive, this.swapClaims.swapAll(toLive));
		for (int i = 0; i < seated.size(); i++) {
			if (swapped.get(i)) {
				LiveRoom live = taken.get(Session.keyOf(seated.get(i).token()));
				this.events.publishEvent(new RoomFormed(live.roomId(), live.conversationId(), live.roomType(),
						live.topicId(), live.formedAt(), List.of(seated.get(i).token())));
			}
		}
		this.metrics.undone(room.queue(), "refused");
		log.info("Room {} refused: {} participant(s) already in a live room were told it, {} went back", room.roomId(),
				seated.size(), others.size());
		putBack(room, others, stillWaiting);
	}

	/**
	 * Puts these participants back where they waited: their claims first (the popped
	 * record still covers them, so no poll repairs them meanwhile), then their entries.
	 * @return how many went back
	 */
	private long putBack(PoppedRoom room, List<QueueEntry> participants, int stillWaiting) {
		MatchQueue queue = room.queue();
		// a claim a failover already took back to its wait is back too, and so goes its
		// entry
		List<Swap> toWait = participants.stream()
			.map((entry) -> new Swap(entry.token(), room.claim(entry), waiting(queue, entry), Duration.ZERO))
			.toList();
		List<Boolean> back = orFromWait(room, participants, toWait, this.swapClaims.swapAll(toWait)).stream()
			.map(Moved::moved)
			.toList();
		Set<QueueEntry> returning = new HashSet<>();
		for (int i = 0; i < participants.size(); i++) {
			if (back.get(i)) {
				returning.add(participants.get(i));
			}
		}
		if (!returning.isEmpty()) {
			this.activeQueues.touch(queue, now());
		}
		long restored = restore(room, returning);
		this.metrics.waiting(queue, stillWaiting + restored);
		return restored;
	}

	/**
	 * Puts entries back in their queue, then takes out again each whose claim left that
	 * wait meanwhile: a leave or an eviction between its claim's return and its entry's
	 * found no entry to remove, and the entry would wait without its claim until popped.
	 * One read per entry, on this undoing path only.
	 * @return how many are back and waiting
	 */
	private long restore(PoppedRoom room, Set<QueueEntry> entries) {
		long restored = this.restoreRoom.restore(room, entries);
		for (QueueEntry entry : entries) {
			if (!(this.claims.read(entry.token()) instanceof TokenState.Waiting waiting
					&& waiting.joinId().equals(entry.joinId()))) {
				this.claims.removeEntry(room.queue(), entry);
				restored--;
			}
		}
		return Math.max(0, restored);
	}

	/** Where a popped participant's claim moved from, if it moved. */
	private enum Moved {

		FROM_ROOM_CLAIM, FROM_WAIT, NOT;

		boolean moved() {
			return this != NOT;
		}

	}

	/**
	 * Where moving popped participants' claims from the room claim they were moved to
	 * failed, moves them from the wait they were popped from instead: a failover can
	 * bring that back (the primary died before its replica heard of the move). The second
	 * round trip is only for those the first did not move.
	 * @param swaps each participant's swap from its room claim
	 * @param fromRoomClaim for each, whether that swap (already made) moved it
	 */
	private List<Moved> orFromWait(PoppedRoom room, List<QueueEntry> entries, List<Swap> swaps,
			List<Boolean> fromRoomClaim) {
		List<Moved> moved = new ArrayList<>(entries.size());
		List<Integer> notMoved = new ArrayList<>();
		for (int i = 0; i < entries.size(); i++) {
			moved.add(fromRoomClaim.get(i) ? Moved.FROM_ROOM_CLAIM : Moved.NOT);
			if (!fromRoomClaim.get(i)) {
				notMoved.add(i);
			}
		}
		if (notMoved.isEmpty()) {
			return moved;
		}
		List<Boolean> fromWait = this.swapClaims.swapAll(notMoved.stream().map((i) -> {
			Swap intended = swaps.get(i);
			return new Swap(intended.token(), waiting(room.queue(), entries.get(i)), intended.next(), intended.ttl());
		}).toList());
		for (int j = 0; j < notMoved.size(); j++) {
			if (fromWait.get(j)) {
				moved.set(notMoved.get(j), Moved.FROM_WAIT);
			}
		}
		return moved;
	}

	/**
	 * Moves popped participants into a room that MySQL seats them in: a claim a failover
	 * took back to its wait moves too, and the entry it may have back in the queue goes.
	 * @param swaps each one's swap from its room claim
	 * @param fromRoomClaim for each, whether that swap (already made) moved it
	 * @return for each, in order, whether it is in the room now
	 */
	private List<Boolean> intoRoom(PoppedRoom room, List<QueueEntry> entries, List<Swap> swaps,
			List<Boolean> fromRoomClaim) {
		List<Moved> moved = orFromWait(room, entries, swaps, fromRoomClaim);
		for (int i = 0; i < entries.size(); i++) {
			if (moved.get(i) == Moved.FROM_WAIT) {
				this.claims.removeEntry(room.queue(), entries.get(i));
				this.metrics.recovered();
			}
		}
		return moved.stream().map(Moved::moved).toList();
	}

	private static TokenState.Waiting waiting(MatchQueue queue, QueueEntry entry) {
		return new TokenState.Waiting(queue, entry.since(), entry.joinId());
	}

	private static String newJoinId() {
		byte[] bytes = new byte[8];
		ThreadLocalRandom.current().nextBytes(bytes);
		return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
	}

	/**
	 * Now to the millisecond, as the claims in Redis hold it: the {@code matched_at} a
	 * caller hears from its join, a poll or the push, and the conversation's
	 * {@code formed_at}, are one time.
	 */
	public Instant now() {
		return this.clock.instant().truncatedTo(ChronoUnit.MILLIS);
	}

}
