package io.kindling.matching.join;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import io.kindling.matching.party.Parties;
import io.kindling.matching.queue.QueueEntry;
import io.kindling.matching.queue.TokenState;
import io.kindling.matching.ratelimit.RateLimiter;
import io.kindling.matching.room.RoomClaims;
import io.kindling.matching.session.Session;
import io.kindling.matching.stats.QueueStats;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Service;

/**
 * Joining, polling and leaving, for the HTTP calls: the per-address limit, then the
 * claims' state machine, whose claim it answers as the caller's status (with the queue's
 * estimated wait).
 */
@Service
public class JoinService {

	private static final Logger log = LoggerFactory.getLogger(JoinService.class);

	private final RateLimiter rateLimiter;

	private final RoomClaims claims;

	private final QueueStats stats;

	private final Parties parties;

	JoinService(RateLimiter rateLimiter, RoomClaims claims, QueueStats stats, Parties parties) {
		this.rateLimiter = rateLimiter;
		this.claims = claims;
		this.stats = stats;
		this.parties = parties;
	}

	/**
	 * Joins the queue of each topic (the size and the list were checked on the request),
	 * then tries to form a room.
	 * @return the status after the join: matched when this call formed the caller's room
	 * @throws io.kindling.support.web.Refused {@code rate-limited}, {@code banned},
	 * {@code topic-unavailable} or {@code already-joined}, as the checks come
	 */
	MatchingStatus join(Session session, String clientAddress, List<Long> topicIds, int size) {
		return join(session, clientAddress, topicIds, size, Optional.empty());
	}

	/**
	 * As {@link #join(Session, String, List, int)}, opted in to the fallback to anyone
	 * after {@code fallbackAfter} when present.
	 */
	MatchingStatus join(Session session, String clientAddress, List<Long> topicIds, int size,
			Optional<Duration> fallbackAfter) {
		this.rateLimiter.countJoin(clientAddress);
		return status(this.claims.join(session.token(), clientAddress, topicIds, size, fallbackAfter));
	}

	/**
	 * The creator of a party of two joins for both (size 3 only, checked first), as one
	 * ticket: the party's second member waits, and is seated, with it. A party does not
	 * opt in to the fallback to anyone.
	 * @throws io.kindling.support.web.Refused {@code party-size}, {@code party-fallback},
	 * {@code rate-limited}, {@code no-such-party}, {@code not-party-creator},
	 * {@code party-incomplete}, then as {@link #join}, for either member
	 */
	MatchingStatus joinParty(Session session, String clientAddress, List<Long> topicIds, int size, String partyId,
			Optional<Duration> fallbackAfter) {
		Parties.requireSize(size);
		Parties.requireNoFallback(fallbackAfter);
		this.rateLimiter.countJoin(clientAddress);
		QueueEntry.Party party = this.parties.forJoin(session.token(), partyId);
		TokenState state = this.claims.joinParty(session.token(), clientAddress, topicIds, size, party);
		this.parties.joined(partyId);
		return status(state);
	}

	/** A token's status as Redis holds it, without trying to form a room. */
	public MatchingStatus current(String token) {
		return status(this.claims.current(token));
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
	 * For one of the people a room of three seated when it formed: how many sit in it
	 * now, once a newcomer took the seat someone left; empty otherwise (also for the
	 * newcomer itself, and while MySQL is away).
	 */
	public OptionalInt seatedAfterNewcomer(MatchingStatus.Matched room) {
		if (room.roomType() != 3 || Boolean.TRUE.equals(room.backfilled())) {
			return OptionalInt.empty();
		}
		return this.claims.seatedIfBackfilled(room.roomId());
	}

	/**
	 * As {@link #status(Session)}; a waiting caller that is banned (its session, or this
	 * address) is taken out of its queue and answered idle.
	 */
	MatchingStatus status(Session session, String clientAddress) {
		return status(this.claims.poll(session.token(), clientAddress));
	}

	private MatchingStatus status(TokenState state) {
		return MatchingStatus.of(state, (waiting) -> this.stats.estimatedWait(waiting).toMillis());
	}

	/**
	 * Leaves the queue or the room; nothing to leave is fine too. A member of a party
	 * tells the party then, so that it lives {@code party-ttl} once both are out; best
	 * effort, after the leave is done: a party not told lives on as long as its join gave
	 * it.
	 */
	void leave(Session session) {
		TokenState left = this.claims.leave(session.token());
		if (mayBeInAParty(session.token(), left)) {
			try {
				this.parties.left(session.token(), (other) -> !(this.claims.current(other) instanceof TokenState.Idle));
			}
			catch (DataAccessException ex) {
				log.warn("Could not tell a party its member left", ex);
			}
		}
	}

	/**
	 * A party waits as a party and sits only in rooms of three, never as a backfilled
	 * newcomer: any other leave asks nothing more of Redis.
	 */
	private static boolean mayBeInAParty(String token, TokenState left) {
		return switch (left) {
			case TokenState.Waiting waiting -> waiting.entry(token).party().isPresent();
			case TokenState.Forming forming -> forming.roomType() == 3;
			case TokenState.Matched matched -> matched.roomType() == 3 && !matched.backfilled();
			case TokenState.Idle idle -> false;
		};
	}

}
