package io.kindling.matching.join;

import java.time.Instant;
import java.util.Optional;

import io.kindling.matching.ban.BanList;
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

/** Joining, polling and leaving: the checks in their documented order, then the queue. */
@Service
public class JoinService {

	private final RateLimiter rateLimiter;

	private final BanList bans;

	private final TopicCatalogue topics;

	private final LeaveScript leave;

	private final ReadStateScript readState;

	private final RoomFormer former;

	JoinService(RateLimiter rateLimiter, BanList bans, TopicCatalogue topics, LeaveScript leave,
			ReadStateScript readState, RoomFormer former) {
		this.rateLimiter = rateLimiter;
		this.bans = bans;
		this.topics = topics;
		this.leave = leave;
		this.readState = readState;
		this.former = former;
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
		Instant now = this.former.now();
		RoomFormer.Attempt attempt = this.former.join(session.token(), queue, now);
		if (!attempt.joined()) {
			throw new JoinRefused.AlreadyJoined();
		}
		Optional<RoomFormed> formed = attempt.formed();
		if (formed.isPresent() && formed.get().tokens().contains(session.token())) {
			return MatchingStatus.matched(formed.get());
		}
		// queued at now (the script stored exactly that ms); a room formed from here on
		// reaches the caller by push or by its next poll
		return MatchingStatus.waiting(queue.topicId(), queue.size(), Instant.ofEpochMilli(now.toEpochMilli()));
	}

	/** A token's status as Redis holds it, without trying to form a room. */
	public MatchingStatus current(String token) {
		return MatchingStatus.of(this.readState.read(token));
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
