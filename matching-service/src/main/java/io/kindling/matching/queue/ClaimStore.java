package io.kindling.matching.queue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Where the rooms keep a session's claim and its queue entry: every atomic step of the
 * claim state machine, one call each (in Redis one script, on one slot). The state
 * machine is the only caller; its unit tests put an in-memory store in its place.
 */
public interface ClaimStore {

	/** The token's claim, as one read. */
	TokenState read(String token);

	/**
	 * A join's first step: the token claims this wait unless it holds a claim, and its
	 * queue is marked active for the sweeper.
	 * @return claimed (with the token's recent partners), or the claim the token holds
	 */
	ClaimWaitingScript.Outcome claimWaiting(String token, TokenState.Waiting waiting);

	/**
	 * A join's second step: its entry into the queue, with its recent partners, and a
	 * first try to form a room, nobody else able to pop the entry between the two.
	 */
	FormRoomScript.Result enqueueAndForm(MatchQueue queue, QueueEntry entry, String recentPartners, Instant now);

	/**
	 * A join's entry into its fallback queue, with its recent partners, scored with when
	 * it becomes eligible there; nothing is formed.
	 */
	void enqueue(MatchQueue fallbackQueue, QueueEntry entry, String recentPartners);

	/**
	 * Drops timed-out entries and pops at most one room.
	 * @param lookFor an entry whose place to report, if any
	 */
	FormRoomScript.Result form(MatchQueue queue, Instant now, Optional<QueueEntry> lookFor);

	/** Where an entry is, changing nothing. */
	FormRoomScript.Place find(MatchQueue queue, QueueEntry entry, Instant now);

	/**
	 * Moves claims by compare-and-set.
	 * @return for each swap, in order, whether the claim was the one expected (only those
	 * changed)
	 */
	List<Boolean> swap(List<SwapClaimScript.Swap> swaps);

	/**
	 * A written room's claims become the room with its conversation, and its people each
	 * other's recent partners.
	 * @return for each participant, in order, whether its claim was still the room's
	 */
	List<Boolean> confirm(PoppedRoom room, long conversationId, Duration roomTtl, Duration cooldown, Instant now);

	/**
	 * Puts those of a popped room whose claims went back to waiting back into the queue
	 * with their old places, and forgets the room's popped records.
	 * @return how many went back
	 */
	long restore(PoppedRoom room, Set<QueueEntry> back);

	/** Takes a join's entry out of its queue; its claim must be gone first. */
	void removeEntry(MatchQueue queue, QueueEntry entry);

	/** Marks a queue active for the sweeper: people are going back into it. */
	void markActive(MatchQueue queue, Instant now);

	/** The queues that may hold someone. */
	List<MatchQueue> activeQueues();

	/** Since when the queue's oldest entry waits, if anyone waits in it. */
	Optional<Instant> oldestWaiting(MatchQueue queue);

	/** Every entry waiting in the queue, oldest first. */
	List<QueueEntry> waiting(MatchQueue queue);

	// --- backfill: a seat a leave reopened in a room of three --------------------------

	/**
	 * The partner ids a written room claim keeps of the room's others; empty when it
	 * keeps none (a claim restored from MySQL).
	 */
	List<String> roomPartners(String token);

	/**
	 * Opens the room's seat for the next single joiner of its queue until {@code until},
	 * unless the room had one offered already (a room reopens one seat, once).
	 * @return whether this call opened it
	 */
	boolean offerSeat(OpenSeat seat, Instant until, Instant now);

	/** Takes the room's open seat back (nobody is left in it); a taken one stays. */
	boolean withdrawSeat(OpenSeat seat, Instant now);

	/**
	 * A joiner takes the open seat of the oldest room of the queue it may sit in: none of
	 * whose people is itself or one of its recent partners.
	 * @param recentPartners the joiner's, as its claim read them
	 */
	Optional<OpenSeat> takeSeat(MatchQueue queue, String token, String recentPartners, Instant now);

	/**
	 * A newcomer's claim, being written into the room, becomes the written room, and the
	 * room's people its recent partners.
	 * @return whether its claim was still being written into that room
	 */
	boolean confirmSeat(String token, TokenState.Matched written, List<String> partnerIds, Duration ttl,
			Duration cooldown, Instant now);

}
