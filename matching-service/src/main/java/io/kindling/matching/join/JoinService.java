package io.kindling.matching.join;

import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

import io.kindling.matching.ban.BanList;
import io.kindling.matching.queue.EnqueueScript;
import io.kindling.matching.queue.LeaveScript;
import io.kindling.matching.queue.MatchQueue;
import io.kindling.matching.queue.ReadStateScript;
import io.kindling.matching.queue.TokenState;
import io.kindling.matching.ratelimit.RateLimiter;
import io.kindling.matching.room.RoomFormed;
import io.kindling.matching.room.RoomFormer;
import io.kindling.matching.session.Session;
import io.kindling.matching.topic.TopicCatalogue;

import org.springframework.stereotype.Service;

/** Joining, polling and leaving: the checks in the contract's order, then the queue. */
@Service
public class JoinService {

	/**
	 * How long a join waits for a room another former is writing: see {@link #roomOf}.
	 */
	static final long FORMING_WAIT_MILLIS = 100;

	private final RateLimiter rateLimiter;

	private final BanList bans;

	private final TopicCatalogue topics;

	private final EnqueueScript enqueue;

	private final LeaveScript leave;

	private final ReadStateScript readState;

	private final RoomFormer former;

	private final Clock clock;

	JoinService(RateLimiter rateLimiter, BanList bans, TopicCatalogue topics, EnqueueScript enqueue, LeaveScript leave,
			ReadStateScript readState, RoomFormer former, Clock clock) {
		this.rateLimiter = rateLimiter;
		this.bans = bans;
		this.topics = topics;
		this.enqueue = enqueue;
		this.leave = leave;
		this.readState = readState;
		this.former = former;
		this.clock = clock;
	}

	/**
	 * Joins the queue (the size was checked on the request), then tries to form a room.
	 * @return the status after the join: matched when this call formed the caller's room
	 */
	MatchingStatus join(Session session, String clientAddress, MatchQueue queue) {
		this.rateLimiter.countJoin(clientAddress);
		if (this.bans.isBanned(session.key(), clientAddress)) {
			throw new JoinRefused.Banned();
		}
		if (!this.topics.isActive(queue.topicId())) {
			throw new JoinRefused.TopicUnavailable(queue.topicId());
		}
		Instant now = this.clock.instant();
		if (!this.enqueue.enqueue(session.token(), queue, now)) {
			throw new JoinRefused.AlreadyJoined();
		}
		RoomFormer.Attempt attempt = this.former.tryForm(queue, session.token());
		Optional<RoomFormed> formed = attempt.formed();
		if (formed.isPresent() && formed.get().tokens().contains(session.token())) {
			return MatchingStatus.matched(formed.get());
		}
		if (!attempt.callerQueued()) {
			// another instance or the sweeper put the caller in a room between the
			// enqueue and this try: answer with that room
			return MatchingStatus.of(roomOf(session.token()));
		}
		// still queued at now (the enqueue script stored exactly that ms); a room formed
		// from here on reaches the caller by push or by its next poll
		return MatchingStatus.waiting(queue.topicId(), queue.size(), Instant.ofEpochMilli(now.toEpochMilli()));
	}

	/**
	 * The state of a caller whom another former just popped into a room. That former is
	 * writing the conversation, which takes milliseconds, so the join waits for it a
	 * little (pauses of 1, 2, 4 ... ms, about {@link #FORMING_WAIT_MILLIS} in all) rather
	 * than answer "waiting" for a room that is already made. If the former died, the room
	 * stays forming and the caller hears waiting, as the contract has it.
	 */
	TokenState roomOf(String token) {
		TokenState state = this.readState.read(token);
		long waited = 0;
		for (long pause = 1; state instanceof TokenState.Forming && waited < FORMING_WAIT_MILLIS; pause *= 2) {
			try {
				Thread.sleep(pause);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return state;
			}
			waited += pause;
			state = this.readState.read(token);
		}
		return state;
	}

	/** The caller's status; a waiting caller's poll also tries to form a room. */
	public MatchingStatus status(Session session) {
		TokenState state = this.readState.read(session.token());
		if (state instanceof TokenState.Waiting waiting) {
			this.former.tryForm(waiting.queue());
			state = this.readState.read(session.token());
		}
		return MatchingStatus.of(state);
	}

	/** Leaves the queue or the room; nothing to leave is fine too. */
	void leave(Session session) {
		this.leave.leave(session.token());
	}

}
