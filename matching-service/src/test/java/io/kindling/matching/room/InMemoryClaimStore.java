package io.kindling.matching.room;

import java.time.Clock;
import io.kindling.matching.queue.RecentPartners;
import io.kindling.matching.queue.OpenSeat;
import java.util.HashSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import io.kindling.matching.MatchingProperties;
import io.kindling.matching.queue.ClaimStore;
import io.kindling.matching.queue.ClaimWaitingScript;
import io.kindling.matching.queue.FormRoomScript;
import io.kindling.matching.queue.MatchQueue;
import io.kindling.matching.queue.PoppedRoom;
import io.kindling.matching.queue.QueueEntry;
import io.kindling.matching.queue.SwapClaimScript;
import io.kindling.matching.queue.TokenState;
import org.jspecify.annotations.Nullable;

/**
 * The claim store in memory, for the state machine's unit tests: the claims with their
 * expiries, each queue's entries oldest first, the popped records, the active queues.
 * Forming takes the oldest {@code size} entries, or the oldest two of a size-3 queue
 * whose head waited {@code fallback-after}, after dropping those past
 * {@code wait-timeout}; recent partners are the forming script's own concern (its
 * integration tests), so none are kept here. Single-threaded, as the tests are.
 */
final class InMemoryClaimStore implements ClaimStore {

	private final Clock clock;

	private final MatchingProperties properties;

	private final Map<String, Claim> claims = new HashMap<>();

	private final Map<MatchQueue, Map<String, QueueEntry>> queues = new HashMap<>();

	private final Map<MatchQueue, Map<String, Instant>> popped = new HashMap<>();

	private final Map<MatchQueue, Instant> active = new LinkedHashMap<>();

	private int calls;

	/** The partner ids each written room claim keeps, by token. */
	private final Map<String, List<String>> roomPartners = new HashMap<>();

	/** Reopened seats by room id: open, taken or withdrawn, until their window ends. */
	private final Map<String, Offer> offers = new LinkedHashMap<>();

	private record Offer(OpenSeat seat, Instant until, String state) {

	}

	InMemoryClaimStore(Clock clock, MatchingProperties properties) {
		this.clock = clock;
		this.properties = properties;
	}

	private record Claim(TokenState state, @Nullable Instant expiresAt) {

	}

	// --- the port -------------------------------------------------------------------

	@Override
	public TokenState read(String token) {
		this.calls++;
		return claim(token);
	}

	@Override
	public ClaimWaitingScript.Outcome claimWaiting(String token, TokenState.Waiting waiting) {
		this.calls++;
		TokenState held = claim(token);
		waiting.allQueues().forEach((queue) -> this.active.put(queue, waiting.since()));
		if (!(held instanceof TokenState.Idle)) {
			return new ClaimWaitingScript.Outcome(false, held, "");
		}
		this.claims.put(token, new Claim(waiting, null));
		return new ClaimWaitingScript.Outcome(true, waiting, "");
	}

	@Override
	public FormRoomScript.Result enqueueAndForm(MatchQueue queue, QueueEntry entry, String recentPartners,
			Instant now) {
		entries(queue).put(entry.member(), entry);
		// one script with the forming that follows, which counts it
		return form(queue, now, Optional.of(entry));
	}

	@Override
	public void enqueue(MatchQueue fallbackQueue, QueueEntry entry, String recentPartners) {
		this.calls++;
		entries(fallbackQueue).put(entry.member(), entry);
	}

	@Override
	public FormRoomScript.Result form(MatchQueue queue, Instant now, Optional<QueueEntry> lookFor) {
		this.calls++;
		forgetStalePops(queue, now);
		Map<String, QueueEntry> entries = entries(queue);
		List<QueueEntry> timedOut = oldestFirst(queue).stream()
			.filter((entry) -> entry.scoreIn(queue) <= now.minus(this.properties.waitTimeout()).toEpochMilli())
			.toList();
		timedOut.forEach((entry) -> entries.remove(entry.member()));
		// a fallback queue takes only those past their own fallback wait
		List<QueueEntry> waiting = oldestFirst(queue).stream()
			.filter((entry) -> entry.scoreIn(queue) <= now.toEpochMilli())
			.toList();
		int take = 0;
		boolean fallback = false;
		if (waiting.size() >= queue.size()) {
			take = queue.size();
		}
		else if (queue.size() == 3 && waiting.size() == 2
				&& !waiting.get(0).since().isAfter(now.minus(this.properties.fallbackAfter()))) {
			take = 2;
			fallback = true;
		}
		List<QueueEntry> room = waiting.subList(0, take);
		for (QueueEntry entry : room) {
			entries.remove(entry.member());
			this.popped.computeIfAbsent(queue, (key) -> new HashMap<>()).put(entry.member(), now);
		}
		FormRoomScript.Place place = lookFor.map((entry) -> place(queue, entry)).orElse(FormRoomScript.Place.NONE);
		Optional<PoppedRoom> formed = room.isEmpty() ? Optional.empty()
				: Optional.of(new PoppedRoom(UUID.randomUUID().toString(), queue, fallback, now, List.copyOf(room)));
		return new FormRoomScript.Result(entries.size(), timedOut, place, formed, false);
	}

	@Override
	public FormRoomScript.Place find(MatchQueue queue, QueueEntry entry, Instant now) {
		this.calls++;
		forgetStalePops(queue, now);
		return place(queue, entry);
	}

	@Override
	public List<Boolean> swap(List<SwapClaimScript.Swap> swaps) {
		this.calls++;
		List<Boolean> swapped = new ArrayList<>();
		for (SwapClaimScript.Swap swap : swaps) {
			TokenState held = claim(swap.token());
			boolean expected = (swap.expected() instanceof TokenState.Idle) ? held instanceof TokenState.Idle
					: !(held instanceof TokenState.Idle) && held.identityField().equals(swap.expected().identityField())
							&& held.identity().equals(swap.expected().identity());
			if (expected) {
				put(swap.token(), swap.next(), swap.ttl());
			}
			swapped.add(expected);
		}
		return swapped;
	}

	@Override
	public List<Boolean> confirm(PoppedRoom room, long conversationId, Duration roomTtl, Duration cooldown,
			Instant now) {
		this.calls++;
		List<Boolean> confirmed = new ArrayList<>();
		for (QueueEntry participant : room.participants()) {
			TokenState held = claim(participant.token());
			boolean ours = (held instanceof TokenState.Forming forming && forming.roomId().equals(room.roomId()))
					|| (held instanceof TokenState.Matched matched && matched.roomId().equals(room.roomId()));
			if (ours) {
				put(participant.token(), room.claim(participant).written(conversationId), roomTtl);
				this.roomPartners.put(participant.token(),
						room.participants()
							.stream()
							.filter((other) -> !other.equals(participant))
							.map((other) -> RecentPartners.idOf(other.token()))
							.toList());
			}
			confirmed.add(ours);
		}
		return confirmed;
	}

	@Override
	public long restore(PoppedRoom room, Set<QueueEntry> back) {
		this.calls++;
		long restored = 0;
		for (QueueEntry participant : room.participants()) {
			this.popped.getOrDefault(room.queue(), new HashMap<>()).remove(participant.member());
			if (back.contains(participant)) {
				entries(room.queue()).put(participant.member(), participant);
				restored++;
			}
		}
		return restored;
	}

	@Override
	public void removeEntry(MatchQueue queue, QueueEntry entry) {
		this.calls++;
		entries(queue).remove(entry.member());
	}

	@Override
	public void markActive(MatchQueue queue, Instant now) {
		this.calls++;
		this.active.put(queue, now);
	}

	@Override
	public List<MatchQueue> activeQueues() {
		this.calls++;
		return List.copyOf(this.active.keySet());
	}

	@Override
	public Optional<Instant> oldestWaiting(MatchQueue queue) {
		this.calls++;
		return oldestFirst(queue).stream().map(QueueEntry::since).findFirst();
	}

	@Override
	public List<QueueEntry> waiting(MatchQueue queue) {
		this.calls++;
		return oldestFirst(queue);
	}

	@Override
	public List<String> roomPartners(String token) {
		this.calls++;
		return (claim(token) instanceof TokenState.Matched) ? this.roomPartners.getOrDefault(token, List.of())
				: List.of();
	}

	@Override
	public boolean offerSeat(OpenSeat seat, Instant until, Instant now) {
		this.calls++;
		if (this.offers.containsKey(seat.roomId()) || !until.isAfter(now)) {
			return false;
		}
		this.offers.put(seat.roomId(), new Offer(seat, until, "open"));
		return true;
	}

	@Override
	public boolean withdrawSeat(OpenSeat seat, Instant now) {
		this.calls++;
		Offer offer = this.offers.get(seat.roomId());
		if (offer == null || !offer.state().equals("open")) {
			return false;
		}
		this.offers.put(seat.roomId(), new Offer(offer.seat(), offer.until(), "withdrawn"));
		return true;
	}

	@Override
	public Optional<OpenSeat> takeSeat(MatchQueue queue, String token, String recentPartners, Instant now) {
		this.calls++;
		Set<String> excluded = new HashSet<>(Set.of(RecentPartners.idOf(token)));
		for (String partner : recentPartners.split(",")) {
			int colon = partner.indexOf(':');
			if (colon > 0 && Long.parseLong(partner.substring(colon + 1)) > now.toEpochMilli()) {
				excluded.add(partner.substring(0, colon));
			}
		}
		Optional<Offer> taken = this.offers.values()
			.stream()
			.filter((offer) -> offer.seat().queue().equals(queue) && offer.state().equals("open")
					&& offer.until().isAfter(now) && offer.seat().members().stream().noneMatch(excluded::contains))
			.min(Comparator.comparing(Offer::until));
		taken.ifPresent(
				(offer) -> this.offers.put(offer.seat().roomId(), new Offer(offer.seat(), offer.until(), "taken")));
		return taken.map(Offer::seat);
	}

	@Override
	public boolean confirmSeat(String token, TokenState.Matched written, List<String> partnerIds, Duration ttl,
			Duration cooldown, Instant now) {
		this.calls++;
		if (!(claim(token) instanceof TokenState.Forming forming && forming.roomId().equals(written.roomId()))) {
			return false;
		}
		put(token, written, ttl);
		this.roomPartners.put(token, List.copyOf(partnerIds));
		return true;
	}

	/** The state of the room's reopened seat: open, taken, withdrawn, or none. */
	String offerOf(String roomId) {
		Offer offer = this.offers.get(roomId);
		return (offer != null) ? offer.state() : "none";
	}

	// --- what the tests look at and do by hand --------------------------------------

	/** The queue's waiting tokens, oldest first. */
	List<String> waitingIn(MatchQueue queue) {
		return oldestFirst(queue).stream().map(QueueEntry::token).toList();
	}

	/** The tokens of the queue's popped records. */
	Set<String> poppedFrom(MatchQueue queue) {
		return Set.copyOf(this.popped.getOrDefault(queue, Map.of())
			.keySet()
			.stream()
			.map((member) -> member.substring(0, member.lastIndexOf(':')))
			.toList());
	}

	/** When the claim expires, if it does. */
	Optional<Instant> expiryOf(String token) {
		claim(token);
		Claim claim = this.claims.get(token);
		return (claim != null) ? Optional.ofNullable(claim.expiresAt()) : Optional.empty();
	}

	boolean isActive(MatchQueue queue) {
		return this.active.containsKey(queue);
	}

	/**
	 * A failover's doing: the token's claim is this, with no expiry (idle deletes it).
	 */
	void set(String token, TokenState state) {
		put(token, state, Duration.ZERO);
	}

	/** A failover's doing: the entry is (back) in its queue. */
	void addEntry(MatchQueue queue, QueueEntry entry) {
		entries(queue).put(entry.member(), entry);
	}

	/** How many calls the state machine made, round trips on one Redis. */
	int calls() {
		return this.calls;
	}

	// --- inside -----------------------------------------------------------------------

	private TokenState claim(String token) {
		Claim claim = this.claims.get(token);
		if (claim == null) {
			return new TokenState.Idle();
		}
		if (claim.expiresAt() != null && !this.clock.instant().isBefore(claim.expiresAt())) {
			this.claims.remove(token);
			return new TokenState.Idle();
		}
		return claim.state();
	}

	private void put(String token, TokenState state, Duration ttl) {
		if (state instanceof TokenState.Idle) {
			this.claims.remove(token);
		}
		else {
			this.claims.put(token, new Claim(state, ttl.isZero() ? null : this.clock.instant().plus(ttl)));
		}
	}

	private Map<String, QueueEntry> entries(MatchQueue queue) {
		return this.queues.computeIfAbsent(queue, (key) -> new HashMap<>());
	}

	private List<QueueEntry> oldestFirst(MatchQueue queue) {
		return entries(queue).values()
			.stream()
			.sorted(Comparator.comparingLong((QueueEntry entry) -> entry.scoreIn(queue))
				.thenComparing(QueueEntry::member))
			.toList();
	}

	private void forgetStalePops(MatchQueue queue, Instant now) {
		Instant before = now.minus(this.properties.roomPendingTtl());
		this.popped.getOrDefault(queue, new HashMap<>()).values().removeIf((at) -> !at.isAfter(before));
	}

	private FormRoomScript.Place place(MatchQueue queue, QueueEntry entry) {
		if (entries(queue).containsKey(entry.member())) {
			return FormRoomScript.Place.QUEUED;
		}
		if (this.popped.getOrDefault(queue, Map.of()).containsKey(entry.member())) {
			return FormRoomScript.Place.POPPED;
		}
		return FormRoomScript.Place.NONE;
	}

}
