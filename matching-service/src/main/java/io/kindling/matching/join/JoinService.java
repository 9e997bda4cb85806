package io.kindling.matching.join;

import java.time.Instant;
import java.util.Optional;

import io.kindling.matching.ban.BanList;
import io.kindling.matching.chat.RoomChat;
import io.kindling.matching.queue.MatchQueue;
import io.kindling.matching.queue.QueueEviction;
import io.kindling.matching.queue.SwapClaimScript;
import io.kindling.matching.queue.TokenClaims;
import io.kindling.matching.queue.TokenState;
import io.kindling.matching.ratelimit.RateLimiter;
import io.kindling.matching.room.RoomFormed;
import io.kindling.matching.room.RoomFormer;
import io.kindling.matching.room.Seats;
import io.kindling.matching.session.Session;
import io.kindling.matching.stats.QueueStats;
import io.kindling.matching.topic.TopicCatalogue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.ConcurrencyFailureException;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.TransactionException;

/** Joining, polling and leaving: the checks in their documented order, then the queue. */
@Service
public class JoinService {

	/** A leave retries this often when its claim keeps moving under it. */
	private static final int LEAVE_ATTEMPTS = 5;

	private static final Logger log = LoggerFactory.getLogger(JoinService.class);

	private final RateLimiter rateLimiter;

	private final BanList bans;

	private final TopicCatalogue topics;

	private final TokenClaims claims;

	private final SwapClaimScript swapClaims;

	private final Seats seats;

	private final RoomFormer former;

	private final QueueStats stats;

	private final QueueEviction eviction;

	private final RoomChat chat;

	JoinService(RateLimiter rateLimiter, BanList bans, TopicCatalogue topics, TokenClaims claims,
			SwapClaimScript swapClaims, Seats seats, RoomFormer former, QueueStats stats, QueueEviction eviction,
			RoomChat chat) {
		this.chat = chat;
		this.eviction = eviction;
		this.stats = stats;
		this.rateLimiter = rateLimiter;
		this.bans = bans;
		this.topics = topics;
		this.claims = claims;
		this.swapClaims = swapClaims;
		this.seats = seats;
		this.former = former;
	}

	/**
	 * Joins the queue (the size was checked on the request), then tries to form a room.
	 * @return the status after the join: matched when this call formed the caller's room
	 */
	MatchingStatus join(Session session, String clientAddress, MatchQueue queue) {
		this.rateLimiter.countJoin(clientAddress);
		if (this.bans.isBanned(session.key(), clientAddress)) {
			throw JoinRefusals.banned();
		}
		if (!this.topics.isActive(queue.topicId())) {
			throw JoinRefusals.TOPIC_UNAVAILABLE
				.refused("topic " + queue.topicId() + " does not exist or is not active");
		}
		RoomFormer.Attempt attempt = this.former.join(session.token(), queue, this.former.now());
		if (!attempt.joined()) {
			throw JoinRefusals.ALREADY_JOINED
				.refused("this session is already waiting or in a room; DELETE /api/matching first");
		}
		Optional<RoomFormed> formed = attempt.formed();
		if (formed.isPresent() && formed.get().tokens().contains(session.token())) {
			return MatchingStatus.matched(formed.get());
		}
		// asked again now that the claim is written: a ban made since the first question
		// has forgotten this instance's cache before taking its session out of its
		// queue, so either this sees it or that finds this claim
		if (this.bans.isBanned(session.key(), clientAddress)) {
			this.eviction.evict(session.token());
			// an eviction that ran between this join's claim and its entry took the claim
			// and found no entry: this join's own entry goes too
			if (attempt.held() instanceof TokenState.Waiting waiting) {
				this.claims.removeEntry(queue, waiting.entry(session.token()));
			}
			throw JoinRefusals.banned();
		}
		// a room formed from here on reaches the caller by push or by its next poll
		return status(attempt.held());
	}

	/** A token's status as Redis holds it, without trying to form a room. */
	public MatchingStatus current(String token) {
		return status(this.claims.read(token));
	}

	/**
	 * The caller's status; a waiting caller's poll also tries to form a room, an idle
	 * one's looks for a live room in MySQL that a Redis failover lost, and one whose room
	 * is still being written long after it formed settles it from MySQL.
	 */
	public MatchingStatus status(Session session) {
		return status(session, "");
	}

	/**
	 * As {@link #status(Session)}; a waiting caller that is banned (its session, or this
	 * address) is taken out of its queue and answered idle.
	 */
	MatchingStatus status(Session session, String clientAddress) {
		TokenState state = this.claims.read(session.token());
		if (state instanceof TokenState.Waiting && this.bans.isBanned(session.key(), clientAddress)) {
			this.eviction.evict(session.token());
			state = this.claims.read(session.token());
		}
		if (state instanceof TokenState.Waiting waiting) {
			this.former.poll(session.token(), waiting);
			state = this.claims.read(session.token());
		}
		else if (state instanceof TokenState.Forming forming
				&& this.former.settleBeingWritten(session.token(), forming)) {
			state = this.claims.read(session.token());
		}
		else if (state instanceof TokenState.Idle && this.former.recoverLiveRoom(session.token())) {
			state = this.claims.read(session.token());
		}
		return status(state);
	}

	private MatchingStatus status(TokenState state) {
		return MatchingStatus.of(state, (waiting) -> this.stats.estimatedWait(waiting).toMillis());
	}

	/**
	 * Leaves the queue or the room; nothing to leave is fine too. The claim goes first
	 * and then the queue entry (an entry without its claim is dropped when popped); a
	 * room is left in MySQL first and then in Redis, so a leave acknowledged is never
	 * undone by a later room's refusal. A leave from a queue or from nothing ends any
	 * seat MySQL still has too: a failover can have lost the room from the claim, and the
	 * next poll would find it again.
	 */
	void leave(Session session) {
		String token = session.token();
		for (int attempt = 0; attempt < LEAVE_ATTEMPTS; attempt++) {
			TokenState state = this.claims.read(token);
			switch (state) {
				case TokenState.Idle idle -> {
					leaveAnyRoomInMySql(token);
					return;
				}
				case TokenState.Waiting waiting -> {
					leaveAnyRoomInMySql(token);
					if (this.swapClaims.swap(SwapClaimScript.Swap.toIdle(token, waiting))) {
						this.claims.removeEntry(waiting.queue(), waiting.entry(token));
						return;
					}
				}
				case TokenState.Forming forming -> {
					leaveRoom(session, forming.roomId());
					if (this.swapClaims.swap(SwapClaimScript.Swap.toIdle(token, forming))) {
						return;
					}
				}
				case TokenState.Matched matched -> {
					leaveRoom(session, matched.roomId());
					if (this.swapClaims.swap(SwapClaimScript.Swap.toIdle(token, matched))) {
						return;
					}
				}
			}
			// the claim moved meanwhile (a room formed, or was confirmed): leave what it
			// is now
		}
		throw new ConcurrencyFailureException("the claim of a leaving session kept changing; try again");
	}

	/**
	 * Ends the seat in MySQL, then tells the room's conversation (the leaver's sockets
	 * close, the others hear {@code left}, the last leave ends it), before the claim goes
	 * idle: a leave that fails between is done whole again when retried.
	 */
	private void leaveRoom(Session session, String roomId) {
		Instant now = this.former.now();
		this.seats.leave(session.token(), roomId, now);
		this.chat.left(session.key(), roomId, now);
	}

	/**
	 * Best effort: leaving a queue needs only Redis, as it always has; while MySQL is
	 * away, only a room a failover hid at the same time would be found again.
	 */
	private void leaveAnyRoomInMySql(String token) {
		try {
			this.seats.leaveAnyRoom(token, this.former.now());
		}
		catch (DataAccessException | TransactionException ex) {
			log.debug("Could not end the seats of a session leaving a queue", ex);
		}
	}

}
