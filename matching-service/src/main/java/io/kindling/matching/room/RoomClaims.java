package io.kindling.matching.room;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import io.kindling.matching.MatchingProperties;
import io.kindling.matching.ban.BanList;
import io.kindling.matching.ban.BanRefusals;
import io.kindling.matching.queue.ClaimStore;
import io.kindling.matching.queue.ClaimWaitingScript;
import io.kindling.matching.queue.FormRoomScript;
import io.kindling.matching.queue.MatchQueue;
import io.kindling.matching.queue.OpenSeat;
import io.kindling.matching.queue.PoppedRoom;
import io.kindling.matching.queue.QueueEntry;
import io.kindling.matching.queue.RecentPartners;
import io.kindling.matching.queue.SwapClaimScript.Swap;
import io.kindling.matching.queue.TokenState;
import io.kindling.matching.session.Session;
import io.kindling.matching.topic.TopicCatalogue;
import io.kindling.support.web.Refused;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.ConcurrencyFailureException;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.TransactionException;

/**
 * The room claim's state machine: every move of a session's claim, and only here. A claim
 * is idle, waiting (with an entry in its queue), being written (popped into a room whose
 * conversation MySQL has not stored yet) or in a room; its public methods are the events
 * that move it: {@link #join}, {@link #poll}, {@link #form} (the sweeper), {@link #leave}
 * and {@link #evict} (a ban). A poll or a join also repairs what a crash or a Redis
 * failover left: docs/rooms-on-cluster.md has the table of every transition with what
 * each writes where, beside the crash cases.
 *
 * <p>
 * Each step is one atomic call of the {@link ClaimStore} (Redis, one slot each) or of the
 * {@link RoomLedger} (MySQL); between two of them anything may happen, so every move of a
 * claim is a compare-and-set and every undo puts back only what is still its own.
 */
@Service
public class RoomClaims {

	/**
	 * How long a step between two slots may take before a poll takes it for lost: a
	 * waiting claim without its entry (or a popped record of it) in its queue is set
	 * idle, a room claim still being written is settled from MySQL. Longer than a join
	 * takes between its claim and its entry, or a room between its pop and its
	 * confirmation.
	 */
	public static final Duration ORPHAN_GRACE = Duration.ofSeconds(10);

	/** A leave or an eviction tries this often when the claim keeps moving under it. */
	private static final int ATTEMPTS = 5;

	private static final Logger log = LoggerFactory.getLogger(RoomClaims.class);

	private final ClaimStore store;

	private final RoomLedger ledger;

	private final BanList bans;

	private final TopicCatalogue topics;

	private final ApplicationEventPublisher events;

	private final RoomMetrics metrics;

	private final Clock clock;

	private final MatchingProperties properties;

	RoomClaims(ClaimStore store, RoomLedger ledger, BanList bans, TopicCatalogue topics,
			ApplicationEventPublisher events, RoomMetrics metrics, Clock clock, MatchingProperties properties) {
		this.store = store;
		this.ledger = ledger;
		this.bans = bans;
		this.topics = topics;
		this.events = events;
		this.metrics = metrics;
		this.clock = clock;
		this.properties = properties;
	}

	// --- join -----------------------------------------------------------------------

	/**
	 * Idle to waiting: the checks in their documented order (ban list, topic, a claim
	 * already held), then the token's claim, then its entry and a first try to form a
	 * room in one call. A waiting claim left behind by a crash or a failover is repaired
	 * first. The room formed, if any, holds the oldest in the queue, which may or may not
	 * include the joiner.
	 * @param address the client's address, for the ban list
	 * @return the claim after the join: waiting, or in the room it formed with the caller
	 * in it
	 * @throws Refused {@code banned}, {@code topic-unavailable} or
	 * {@code already-joined}, having changed nothing
	 */
	public TokenState join(String token, String address, MatchQueue queue) {
		return join(token, address, List.of(queue.topicId()), queue.size());
	}

	/**
	 * As {@link #join(String, String, MatchQueue)}, for a join of one or more topics (the
	 * request checked the list): the claim names them all, and the same entry goes into
	 * each topic's queue in turn, each time with a try to form a room, until one seats
	 * the joiner. Whichever queue pops the entry first, the claim moves once: an entry of
	 * the same join popped by another queue finds the claim gone and is dropped.
	 */
	public TokenState join(String token, String address, List<Long> topicIds, int size) {
		return join(token, address, topicIds, size, Optional.empty());
	}

	/**
	 * As {@link #join(String, String, List, int)}, for a join that may opt in to the
	 * fallback to anyone: its entry goes into the size's fallback queue first, scored
	 * with when it becomes eligible there (so no room takes it there sooner), then into
	 * its topics' queues. Whichever queue seats it takes it out of the others.
	 * @param fallbackAfter how long it waits before it may also be matched with anyone
	 * else who opted in and waited past their own; empty when it did not opt in
	 */
	public TokenState join(String token, String address, List<Long> topicIds, int size,
			Optional<Duration> fallbackAfter) {
		return join(token, address, topicIds, size, fallbackAfter, Optional.empty());
	}

	/**
	 * As {@link #join(String, String, List, int)}, for a party of two: the creator joins
	 * for both, and both claims name the one join (the creator's first, then the
	 * partner's; a partner already waiting or in a room undoes the creator's and refuses
	 * the join). The queue's one entry stands for both, with the recent partners of both:
	 * forming takes it whole into a room of three, or not at all. A party waits for its
	 * topics only (the request refuses it the fallback to anyone).
	 * @param partner the party's second member: its token and the address it joined the
	 * party from
	 * @throws Refused as a join, the ban list and the claim asked about both members
	 */
	public TokenState joinParty(String token, String address, List<Long> topicIds, int size, QueueEntry.Party partner) {
		return join(token, address, topicIds, size, Optional.empty(), Optional.of(partner));
	}

	private TokenState join(String token, String address, List<Long> topicIds, int size,
			Optional<Duration> fallbackAfter, Optional<QueueEntry.Party> party) {
		String sessionKey = Session.keyOf(token);
		if (this.bans.isBanned(sessionKey, address) || party.filter(this::partnerBanned).isPresent()) {
			throw banned();
		}
		for (long topicId : topicIds) {
			if (!this.topics.isActive(topicId)) {
				throw JoinRefusals.TOPIC_UNAVAILABLE.refused("topic " + topicId + " does not exist or is not active");
			}
		}
		Instant now = now();
		String joinId = party
			.map((p) -> QueueEntry.newPartyJoinId(address, topicIds, token, p.partner(), p.partnerAddress()))
			.orElseGet(() -> QueueEntry.newJoinId(address, topicIds, fallbackAfter));
		TokenState.Waiting waiting = new TokenState.Waiting(new MatchQueue(topicIds.get(0), size), now, joinId);
		ClaimWaitingScript.Outcome outcome = claimWaiting(token, waiting, now);
		if (!outcome.claimed()) {
			throw JoinRefusals.ALREADY_JOINED
				.refused("this session is already waiting or in a room; DELETE /api/matching first");
		}
		String recentPartners = outcome.recentPartners();
		if (party.isPresent()) {
			ClaimWaitingScript.Outcome partners = claimWaiting(party.get().partner(), waiting, now);
			if (!partners.claimed()) {
				swap(Swap.toIdle(token, waiting));
				throw JoinRefusals.ALREADY_JOINED
					.refused("the party's other member is already waiting or in a room; it must leave first");
			}
			// the entry keeps both members' recent partners away from the party
			recentPartners = String.join(",",
					List.of(recentPartners, partners.recentPartners()).stream().filter((l) -> !l.isEmpty()).toList());
		}
		if (size == 3 && party.isEmpty()) {
			Optional<TokenState> backfilled = takeReopenedSeat(token, waiting, outcome.recentPartners(), now);
			if (backfilled.isPresent()) {
				return backfilled.get();
			}
		}
		String entryPartners = recentPartners;
		waiting.fallbackQueue()
			.ifPresent((anyTopic) -> this.store.enqueue(anyTopic, waiting.entry(token), entryPartners));
		for (MatchQueue queue : oldestFirst(waiting.queues())) {
			FormRoomScript.Result result = this.store.enqueueAndForm(queue, waiting.entry(token), recentPartners, now);
			Optional<RoomFormed> formed = settle(queue, result, now).formed();
			if (formed.isPresent() && formed.get().tokens().contains(token)) {
				return formed.get().claim();
			}
		}
		// asked again now that the entry is in: a ban made here meanwhile forgot this
		// instance's cache before taking its session out of its queue, so either this
		// sees it or that found this claim
		if (this.bans.isBanned(sessionKey, address) || party.filter(this::partnerBanned).isPresent()) {
			leaveQueue(token, waiting);
			throw banned();
		}
		// a room formed from here on reaches the caller by push or by its next poll
		return waiting;
	}

	/**
	 * The token claims this wait, setting a claim a crash left without its entry idle
	 * first.
	 */
	private ClaimWaitingScript.Outcome claimWaiting(String token, TokenState.Waiting waiting, Instant now) {
		ClaimWaitingScript.Outcome outcome = this.store.claimWaiting(token, waiting);
		if (!outcome.claimed() && outcome.held() instanceof TokenState.Waiting held
				&& repairIfOrphaned(token, held, waiting.queues(), now)) {
			outcome = this.store.claimWaiting(token, waiting);
		}
		return outcome;
	}

	private boolean partnerBanned(QueueEntry.Party party) {
		return this.bans.isBanned(Session.keyOf(party.partner()), party.partnerAddress());
	}

	/**
	 * A join of several topics tries the queue whose oldest waits longest first, as one
	 * queue takes its oldest first: one read of each queue's head just before (queues
	 * nobody waits in last, in the order named). A join of one topic reads nothing.
	 */
	private List<MatchQueue> oldestFirst(List<MatchQueue> queues) {
		if (queues.size() == 1) {
			return queues;
		}
		Map<MatchQueue, Instant> oldest = new HashMap<>();
		for (MatchQueue queue : queues) {
			this.store.oldestWaiting(queue).ifPresent((since) -> oldest.put(queue, since));
		}
		return queues.stream()
			.sorted(Comparator.comparing((MatchQueue queue) -> oldest.getOrDefault(queue, Instant.MAX)))
			.toList();
	}

	private static Refused banned() {
		return BanRefusals.BANNED.refused("this session or address may not join rooms");
	}

	/**
	 * A join refused by a waiting claim: refused changes nothing, unless the claim is
	 * lost, its entry in no queue. A join of the same queue again takes a lost claim at
	 * once: it is the retry of a join that failed between its claim and its entry (a
	 * {@code 503}), and a join still on its way between the two ends waiting in that
	 * queue all the same. A join of another queue waits out the grace, so as not to undo
	 * a join that is still to answer.
	 */
	private boolean repairIfOrphaned(String token, TokenState.Waiting waiting, List<MatchQueue> joining, Instant now) {
		boolean retry = waiting.queues().equals(joining);
		return (retry || pastGrace(waiting, now))
				&& waiting.allQueues()
					.stream()
					.allMatch((queue) -> this.store.find(queue, waiting.entry(token), now) == FormRoomScript.Place.NONE)
				&& repair(token, waiting, waiting.queue());
	}

	// --- poll -----------------------------------------------------------------------

	/** The token's claim, read once, moving nothing. */
	public TokenState current(String token) {
		return this.store.read(token);
	}

	/**
	 * A client asks where it is. Waiting: a banned one (its session, this address, or the
	 * address it joined from) is taken out; else its queue gets a try to form a room, and
	 * a claim whose entry its queue lost is set idle past the grace. Being written past
	 * the grace: settled from MySQL. Idle: a live room MySQL seats it in, that a failover
	 * hid from Redis, is restored.
	 * @param address the client's address, for the ban list; empty when unknown
	 * @return the claim after the poll
	 */
	public TokenState poll(String token, String address) {
		TokenState state = this.store.read(token);
		if (state instanceof TokenState.Waiting waiting && (this.bans.isBanned(Session.keyOf(token), address)
				|| this.bans.isAddressBanned(waiting.entry(token).address()) || waiting.entry(token).party().isPresent()
						&& waiting.entry(token).people().stream().anyMatch(this::isBanned))) {
			evict(token);
			state = this.store.read(token);
		}
		boolean moved = switch (state) {
			case TokenState.Waiting waiting -> {
				formFrom(token, waiting);
				yield true;
			}
			case TokenState.Forming forming -> settleBeingWritten(token, forming);
			case TokenState.Idle idle -> recoverLiveRoom(token);
			case TokenState.Matched matched -> false;
		};
		return moved ? this.store.read(token) : state;
	}

	private void formFrom(String token, TokenState.Waiting waiting) {
		Instant now = now();
		boolean lost = true;
		for (MatchQueue queue : waiting.allQueues()) {
			FormRoomScript.Result result = this.store.form(queue, now, Optional.of(waiting.entry(token)));
			Optional<RoomFormed> formed = settle(queue, result, now).formed();
			if (formed.isPresent() && formed.get().tokens().contains(token)) {
				return;
			}
			lost &= result.place() == FormRoomScript.Place.NONE;
		}
		// a join between its claim and its entries looks the same: give it time
		if (lost && pastGrace(waiting, now)) {
			repair(token, waiting, waiting.queue());
		}
	}

	/**
	 * A room claim still "being written" past the grace: the process writing it died, or
	 * a failover lost the confirmation. MySQL tells which: a live seat is the room,
	 * confirmed here; no seat once the pending TTL is over (by the service's clock, as
	 * the rules' times are) is no room, and the token is idle.
	 * @return true when the claim changed
	 */
	private boolean settleBeingWritten(String token, TokenState.Forming forming) {
		Instant now = now();
		if (forming.matchedAt().isAfter(now.minus(ORPHAN_GRACE))) {
			return false;
		}
		return withLiveRoom(token, now,
				(live) -> live.isPresent() ? restore(token, forming, live.get(), now)
						: !forming.matchedAt().isAfter(now.minus(this.properties.roomPendingTtl()))
								&& repair(token, forming, forming.queue()));
	}

	/**
	 * An idle token that MySQL seats in a live room is in it, even when a Redis failover
	 * lost its claim.
	 * @return true when the claim was restored from MySQL
	 */
	private boolean recoverLiveRoom(String token) {
		Instant now = now();
		return withLiveRoom(token, now,
				(live) -> live.isPresent() && restore(token, new TokenState.Idle(), live.get(), now));
	}

	/**
	 * The claim becomes the live room MySQL seats the token in. The newcomer of a
	 * backfilled room was seated by a process that may have died before it told the room
	 * ({@link RoomBackfilled}): it is told now. Told twice it shows nothing twice: a
	 * stream takes a room's {@code member_joined} once, and the conversation says
	 * {@code joined} of a member not in yet only.
	 * @return true when the claim was restored from MySQL
	 */
	private boolean restore(String token, TokenState lost, LiveRoom live, Instant now) {
		if (!recover(new Swap(token, lost, live.claim(), Duration.between(now, live.liveUntil())))) {
			return false;
		}
		if (live.backfilled()) {
			announceNewcomer(token, live, now);
		}
		return true;
	}

	/**
	 * Best effort, as the backfill's own announcement is: while MySQL is away the room's
	 * people are not told, and learn of the newcomer as a stream or socket opening does.
	 */
	private void announceNewcomer(String token, LiveRoom live, Instant now) {
		int members;
		try {
			members = this.ledger.seated(live.roomId(), now);
		}
		catch (DataAccessException | TransactionException ex) {
			log.warn("Could not tell room {} its newcomer again", live.roomId(), ex);
			return;
		}
		this.events.publishEvent(new RoomBackfilled(live.roomId(), live.conversationId(), live.roomType(),
				live.topicId(), token, live.matchedAt(), members));
	}

	/**
	 * Asks MySQL for the token's live room and decides by it. Best effort: while MySQL is
	 * away nothing changes and the poll answers from Redis alone.
	 */
	private boolean withLiveRoom(String token, Instant now, Predicate<Optional<LiveRoom>> decide) {
		Optional<LiveRoom> live;
		try {
			live = this.ledger.liveRoom(token, now);
		}
		catch (DataAccessException | TransactionException ex) {
			log.debug("Could not look for a live room in MySQL", ex);
			return false;
		}
		return decide.test(live);
	}

	private boolean recover(Swap toLiveRoom) {
		boolean recovered = swap(toLiveRoom);
		if (recovered) {
			this.metrics.recovered();
		}
		return recovered;
	}

	/** A claim whose step was lost set idle. */
	private boolean repair(String token, TokenState lost, MatchQueue queue) {
		boolean repaired = swap(Swap.toIdle(token, lost));
		if (repaired) {
			this.metrics.repaired(queue);
		}
		return repaired;
	}

	private static boolean pastGrace(TokenState.Waiting waiting, Instant now) {
		return !waiting.since().isAfter(now.minus(ORPHAN_GRACE));
	}

	// --- leave and evict ------------------------------------------------------------

	/**
	 * Leaves the queue or the room; nothing to leave is fine too. The claim goes first
	 * and then the queue entry (an entry without its claim is dropped when popped); a
	 * room is left in MySQL first, then in its conversation ({@link RoomLeft}) and then
	 * in Redis, so a leave acknowledged is never undone by a later room's refusal. A
	 * leave from a queue or from nothing ends any seat MySQL still has too: a failover
	 * can have lost the room from the claim, and the next poll would find it again.
	 * @return the claim it left (idle when there was nothing to leave)
	 * @throws ConcurrencyFailureException when the claim kept moving under it (rooms
	 * forming and confirmed in a row): try again
	 */
	public TokenState leave(String token) {
		for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
			TokenState state = this.store.read(token);
			boolean left = switch (state) {
				case TokenState.Idle idle -> {
					leaveAnyRoomInMySql(token);
					yield true;
				}
				case TokenState.Waiting waiting -> {
					leaveAnyRoomInMySql(token);
					yield leaveQueue(token, waiting);
				}
				case TokenState.Forming forming -> {
					leaveRoom(token, forming.roomId());
					yield swap(Swap.toIdle(token, forming));
				}
				case TokenState.Matched matched -> {
					leaveRoom(token, matched.roomId());
					reopenSeat(token, matched);
					yield swap(Swap.toIdle(token, matched));
				}
			};
			if (left) {
				return state;
			}
			// the claim moved meanwhile (a room formed, or was confirmed): leave what it
			// is now
		}
		throw new ConcurrencyFailureException("the claim of a leaving session kept changing; try again");
	}

	/**
	 * A ban takes a waiting token out of its queue, on its behalf: its claim first, by
	 * compare-and-set, then its entry, as a leave does. A token idle or in a room is left
	 * as it is (a room's chat cuts a banned session out of it).
	 * @return true when the token was waiting and is out of its queue now
	 */
	public boolean evict(String token) {
		for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
			if (!(this.store.read(token) instanceof TokenState.Waiting waiting)) {
				return false;
			}
			if (leaveQueue(token, waiting)) {
				return true;
			}
			// its claim moved meanwhile (a room formed, or it left): look again
		}
		return false;
	}

	/**
	 * Bans of addresses or networks: every waiting entry the ban list now refuses (its
	 * session, or the address it joined from) leaves its queue, its claim first, whoever
	 * waits for it: one read of each active queue.
	 * @return how many left
	 */
	public int evictBanned() {
		int evicted = 0;
		for (MatchQueue queue : this.store.activeQueues()) {
			for (QueueEntry entry : this.store.waiting(queue)) {
				if (isBanned(entry)) {
					leaveQueue(entry.token(), entry.waiting(queue));
					evicted++;
				}
			}
		}
		return evicted;
	}

	/**
	 * This wait's claim goes, then its entries, which go even when the claim had moved
	 * on: an entry of a wait that is over must not wait on.
	 * @return true when the claim was this wait's
	 */
	private boolean leaveQueue(String token, TokenState.Waiting waiting) {
		boolean left = swap(Swap.toIdle(token, waiting));
		// a party waits as one: either member leaving (or banned) takes both out
		waiting.entry(token)
			.people()
			.stream()
			.filter((person) -> !person.token().equals(token))
			.forEach((person) -> swap(Swap.toIdle(person.token(), waiting)));
		waiting.allQueues().forEach((queue) -> this.store.removeEntry(queue, waiting.entry(token)));
		return left;
	}

	/**
	 * A join of several topics (or with a fallback queue) whose claim has moved out of
	 * its wait through one queue (into a room, or idle) takes its entries out of its
	 * other queues; left there, each would be dropped only when popped, undoing the room
	 * it was popped into.
	 */
	private void removeFromOtherQueues(QueueEntry entry, MatchQueue poppedFrom) {
		for (MatchQueue queue : entry.waiting(poppedFrom).allQueues()) {
			if (!queue.equals(poppedFrom)) {
				this.store.removeEntry(queue, entry);
			}
		}
	}

	/**
	 * Ends the seat in MySQL, then tells the room's conversation ({@link RoomLeft}),
	 * before the claim goes idle: a leave that fails between is done whole again when
	 * retried.
	 */
	private void leaveRoom(String token, String roomId) {
		Instant now = now();
		this.ledger.leave(token, roomId, now);
		this.events.publishEvent(new RoomLeft(token, roomId, now));
	}

	/**
	 * Best effort: leaving a queue needs only Redis, as it always has; while MySQL is
	 * away, only a room a failover hid at the same time would be found again.
	 */
	private void leaveAnyRoomInMySql(String token) {
		try {
			this.ledger.leaveAnyRoom(token, now());
		}
		catch (DataAccessException | TransactionException ex) {
			log.debug("Could not end the seats of a session leaving a queue", ex);
		}
	}

	// --- backfill ---------------------------------------------------------------------

	/**
	 * A leave from a room of three within {@code backfill-window} of its forming reopens
	 * the seat for the next single joiner of its topic, once, until the window ends; the
	 * last leave takes an open seat back. Best effort, after the leave is done in MySQL
	 * and in the conversation: a leave never fails for it, and a seat not reopened only
	 * costs the room a newcomer. A newcomer's own leave reopens nothing (a room is
	 * backfilled once), nor does a claim MySQL restored (it keeps no partners, so the
	 * no-rematch rule could not be kept).
	 */
	private void reopenSeat(String token, TokenState.Matched left) {
		Instant now = now();
		Instant until = left.matchedAt().plus(this.properties.backfillWindow());
		if (left.roomType() != 3 || left.backfilled() || !now.isBefore(until)) {
			return;
		}
		try {
			List<String> partners = this.store.roomPartners(token);
			if (partners.isEmpty()) {
				return;
			}
			List<String> members = new ArrayList<>(partners);
			members.add(RecentPartners.idOf(token));
			OpenSeat seat = new OpenSeat(left.roomId(), left.conversationId(), new MatchQueue(left.topicId(), 3),
					members);
			if (this.ledger.seated(left.roomId(), now) == 0) {
				this.store.withdrawSeat(seat, now);
			}
			else {
				this.store.offerSeat(seat, until, now);
			}
		}
		catch (DataAccessException | TransactionException ex) {
			log.warn("Could not reopen the seat left in room {}", left.roomId(), ex);
		}
	}

	/**
	 * How many sit in this room now, once a newcomer was seated in it: what a stream
	 * opened after the newcomer came is told ({@code member_joined}). Best effort: empty
	 * for a room never backfilled, and while MySQL is away.
	 */
	public OptionalInt seatedIfBackfilled(String roomId) {
		try {
			return this.ledger.seatedIfBackfilled(roomId, now());
		}
		catch (DataAccessException | TransactionException ex) {
			log.debug("Could not ask MySQL whether room {} was backfilled", roomId, ex);
			return OptionalInt.empty();
		}
	}

	/**
	 * A single joiner of a size-3 queue (its claim just made) takes a seat a leave
	 * reopened in one of its topics, before its entry goes into any queue; none of the
	 * room's people, the leaver included, may be itself or its recent partner (the take
	 * script decides, in the queue's slot, so one seat goes to one joiner).
	 * @return the joiner's claim once seated (or told its live room), empty when no seat
	 * was for it or MySQL refused it: it then joins its queues as any joiner
	 */
	private Optional<TokenState> takeReopenedSeat(String token, TokenState.Waiting waiting, String recentPartners,
			Instant now) {
		if (this.properties.backfillWindow().isZero()) {
			return Optional.empty();
		}
		for (MatchQueue queue : waiting.queues()) {
			Optional<OpenSeat> seat = this.store.takeSeat(queue, token, recentPartners, now);
			if (seat.isPresent()) {
				return seatNewcomer(token, waiting, seat.get(), now);
			}
		}
		return Optional.empty();
	}

	/**
	 * The newcomer's claim moves from its wait to the room being written, MySQL seats it
	 * (or refuses: the seat is then lost to that room, and the newcomer waits as any
	 * joiner), and its claim becomes the room, backfilled.
	 */
	private Optional<TokenState> seatNewcomer(String token, TokenState.Waiting waiting, OpenSeat seat, Instant now) {
		TokenState.Forming beingWritten = new TokenState.Forming(seat.queue(), waiting.since(), seat.roomId(), 3, now);
		if (!swap(new Swap(token, waiting, beingWritten, this.properties.roomPendingTtl()))) {
			// its claim moved since it was made (a ban took it out): nothing to seat
			return Optional.of(this.store.read(token));
		}
		RoomLedger.Backfilled written;
		try {
			written = this.ledger.backfill(seat, waiting.entry(token), now);
		}
		catch (SeatsTaken ex) {
			// a failover lost the live room MySQL seats the newcomer in: it is told that
			// one
			LiveRoom live = ex.taken().values().iterator().next();
			if (recover(new Swap(token, beingWritten, live.claim(), Duration.between(now, live.liveUntil())))) {
				this.events.publishEvent(live.toldTo(token));
			}
			return Optional.of(this.store.read(token));
		}
		catch (SeatGone | DataAccessException | TransactionException ex) {
			log.info("Room {} not backfilled: {}", seat.roomId(), ex.getMessage());
			return swap(new Swap(token, beingWritten, waiting, Duration.ZERO)) ? Optional.empty()
					: Optional.of(this.store.read(token));
		}
		TokenState.Matched matched = new TokenState.Matched(seat.roomId(), seat.conversationId(), 3,
				seat.queue().topicId(), now, false, true);
		if (!this.store.confirmSeat(token, matched, seat.members(), Duration.between(now, written.liveUntil()),
				this.properties.rematchCooldown(), now)) {
			// it left meanwhile (its seat is ended), or its claim expired (its poll finds
			// the room in MySQL)
			return Optional.of(this.store.read(token));
		}
		this.metrics.backfilled(seat.queue());
		this.events.publishEvent(new RoomBackfilled(seat.roomId(), seat.conversationId(), 3, seat.queue().topicId(),
				token, now, written.members()));
		return Optional.of(matched);
	}

	// --- form -----------------------------------------------------------------------

	/**
	 * The sweeper's visit: forms rooms from the queue until a call pops none, at most
	 * {@code limit} pops, so that fallback and timeout happen with nobody polling.
	 * @return how many rooms formed, and how many were left waiting after the last call
	 */
	public Sweep form(MatchQueue queue, int limit) {
		int formed = 0;
		for (int pops = 0; pops < limit; pops++) {
			Instant now = now();
			Settled settled = settle(queue, this.store.form(queue, now, Optional.empty()), now);
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
			this.store.swap(result.timedOut()
				.stream()
				.map((entry) -> Swap.toIdle(entry.token(), entry.waiting(queue)))
				.toList());
			// a fallback queue's entry would otherwise wait on past the join's timeout
			result.timedOut().forEach((entry) -> removeFromOtherQueues(entry, queue));
		}
		if (result.room().isEmpty()) {
			return new Settled(false, Optional.empty(), result.stillWaiting());
		}
		return new Settled(true, seat(result.room().get(), result.stillWaiting()), result.stillWaiting());
	}

	/**
	 * A popped room's people move from waiting to being written (all, or the room is
	 * undone), MySQL writes it (or refuses it), and they move on to the room.
	 */
	private Optional<RoomFormed> seat(PoppedRoom room, int stillWaiting) {
		MatchQueue queue = room.queue();
		List<QueueEntry> participants = room.participants();
		// a party's two people share their entry's member: one banned stops both
		Set<String> bannedJoins = participants.stream()
			.filter(this::isBanned)
			.map(QueueEntry::member)
			.collect(Collectors.toSet());
		List<QueueEntry> banned = participants.stream()
			.filter((entry) -> bannedJoins.contains(entry.member()))
			.toList();
		if (!banned.isEmpty()) {
			dropBanned(room, banned);
			return Optional.empty();
		}
		List<Boolean> moved = this.store.swap(participants.stream()
			.map((entry) -> new Swap(entry.token(), entry.waiting(queue), room.claim(entry),
					this.properties.roomPendingTtl()))
			.toList());
		if (moved.contains(false)) {
			// someone left or joined elsewhere since their entry went in: the room cannot
			// form, the others go back to their places
			this.metrics.undone(queue, "left");
			putBack(room, only(participants, moved), stillWaiting);
			return Optional.empty();
		}
		long conversationId;
		try {
			conversationId = this.ledger.write(room);
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
		List<Boolean> confirmed = intoRoom(room, participants, toWritten, this.store.confirm(room, conversationId,
				this.properties.roomTtl(), this.properties.rematchCooldown(), now()));
		// seated for good now: an undo before this point needs them still waiting there
		participants.forEach((entry) -> removeFromOtherQueues(entry, queue));
		this.metrics.formed(room);
		RoomFormed formed = new RoomFormed(room.roomId(), conversationId, room.roomType(), room.topicId(),
				room.formedAt(), only(participants, confirmed).stream().map(QueueEntry::token).toList(),
				room.topicFallback());
		this.events.publishEvent(formed);
		return Optional.of(formed);
	}

	/**
	 * Whether the ban list refuses this join: its session, or the address it came from.
	 */
	private boolean isBanned(QueueEntry entry) {
		return this.bans.isBanned(Session.keyOf(entry.token()), entry.address());
	}

	/**
	 * A banned session, or one from a banned address, never sits in a room: it may have
	 * joined before its ban reached this instance. Its claim goes and its entry with it;
	 * the others, whose claims were not moved yet, go back to their places.
	 */
	private void dropBanned(PoppedRoom room, List<QueueEntry> banned) {
		this.store
			.swap(banned.stream().map((entry) -> Swap.toIdle(entry.token(), entry.waiting(room.queue()))).toList());
		banned.forEach((entry) -> removeFromOtherQueues(entry, room.queue()));
		Set<QueueEntry> others = new HashSet<>(room.participants());
		banned.forEach(others::remove);
		this.store.markActive(room.queue(), now());
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
			return new Swap(entry.token(), room.claim(entry), live.claim(), Duration.between(now, live.liveUntil()));
		}).toList();
		List<Boolean> told = intoRoom(room, seated, toLive, this.store.swap(toLive));
		for (QueueEntry entry : only(seated, told)) {
			removeFromOtherQueues(entry, room.queue());
			LiveRoom live = taken.get(Session.keyOf(entry.token()));
			this.events.publishEvent(live.toldTo(entry.token()));
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
			.map((entry) -> new Swap(entry.token(), room.claim(entry), entry.waiting(queue), Duration.ZERO))
			.toList();
		List<Moved> moved = orFromWait(room, participants, toWait, this.store.swap(toWait));
		Set<QueueEntry> returning = new HashSet<>();
		for (int i = 0; i < participants.size(); i++) {
			if (moved.get(i).moved()) {
				returning.add(participants.get(i));
			}
		}
		if (!returning.isEmpty()) {
			this.store.markActive(queue, now());
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
		long restored = this.store.restore(room, entries);
		Map<String, QueueEntry> byMember = new HashMap<>();
		entries.forEach((entry) -> byMember.putIfAbsent(entry.member(), entry));
		for (QueueEntry entry : byMember.values()) {
			// a party's entry waits only while both its people's claims wait with it
			List<QueueEntry> people = entry.people();
			List<QueueEntry> stillWaiting = people.stream().filter(this::stillWaits).toList();
			if (stillWaiting.size() < people.size()) {
				this.store.removeEntry(room.queue(), entry);
				stillWaiting.forEach((person) -> swap(Swap.toIdle(person.token(), person.waiting(room.queue()))));
				restored--;
			}
		}
		return Math.max(0, restored);
	}

	private boolean stillWaits(QueueEntry entry) {
		return this.store.read(entry.token()) instanceof TokenState.Waiting waiting
				&& waiting.joinId().equals(entry.joinId());
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
		List<Boolean> fromWait = this.store.swap(notMoved.stream().map((i) -> {
			Swap intended = swaps.get(i);
			return new Swap(intended.token(), entries.get(i).waiting(room.queue()), intended.next(), intended.ttl());
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
				this.store.removeEntry(room.queue(), entries.get(i));
				this.metrics.recovered();
			}
		}
		return moved.stream().map(Moved::moved).toList();
	}

	// --- the steps ------------------------------------------------------------------

	private boolean swap(Swap swap) {
		return this.store.swap(List.of(swap)).get(0);
	}

	/** Those entries whose flag is set, in order. */
	private static List<QueueEntry> only(List<QueueEntry> entries, List<Boolean> flags) {
		List<QueueEntry> kept = new ArrayList<>(entries.size());
		for (int i = 0; i < entries.size(); i++) {
			if (flags.get(i)) {
				kept.add(entries.get(i));
			}
		}
		return kept;
	}

	/**
	 * Now to the millisecond, as the claims in Redis hold it: the {@code matched_at} a
	 * caller hears from its join, a poll or the push, and the conversation's
	 * {@code formed_at}, are one time.
	 */
	private Instant now() {
		return this.clock.instant().truncatedTo(ChronoUnit.MILLIS);
	}

}
