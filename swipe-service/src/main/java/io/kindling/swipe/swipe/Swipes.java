package io.kindling.swipe.swipe;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.Objects;
import java.util.OptionalLong;

import io.kindling.swipe.block.LockConflicts;
import io.kindling.swipe.block.PairLock;
import io.kindling.swipe.match.MatchOutbox;
import io.kindling.swipe.match.MatchPush;
import io.kindling.swipe.match.MatchRef;
import io.kindling.swipe.match.MatchStore;
import io.kindling.swipe.profile.ProfileDirectory;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The swipe write path: TX 1 makes the swipe durable (and counts it against the day's
 * limit, in the same transaction), the mutual-like script is the fast path that tells
 * whether the pair just matched, TX 2 writes the match with its outbox row and its push.
 * MySQL decides whenever Redis cannot be trusted to know, so a lost Redis never loses or
 * invents a match; every step is idempotent, so a retry, a concurrent duplicate and the
 * reconciler all finish a swipe the same way.
 */
@Service
class Swipes {

	private static final Logger log = LoggerFactory.getLogger(Swipes.class);

	private final SwipeHistory history;

	private final DailyLimits limits;

	private final ProfileDirectory profiles;

	private final MutualLikeScript mutualLike;

	private final PairLock pairs;

	private final MatchStore matches;

	private final MatchOutbox outbox;

	private final MatchPush push;

	private final TransactionTemplate transactions;

	private final ApplicationEventPublisher events;

	private final Clock clock;

	private final Counter redisFallbacks;

	Swipes(SwipeHistory history, DailyLimits limits, ProfileDirectory profiles, MutualLikeScript mutualLike,
			PairLock pairs, MatchStore matches, MatchOutbox outbox, MatchPush push, TransactionTemplate transactions,
			ApplicationEventPublisher events, Clock clock, MeterRegistry meters) {
		this.history = history;
		this.limits = limits;
		this.profiles = profiles;
		this.mutualLike = mutualLike;
		this.pairs = pairs;
		this.matches = matches;
		this.outbox = outbox;
		this.push = push;
		this.transactions = transactions;
		this.events = events;
		this.clock = clock;
		this.redisFallbacks = Counter.builder("kindling.swipe.redis.fallbacks")
			.description("Mutual-like decisions made by MySQL because Redis was unreachable")
			.register(meters);
	}

	record Outcome(SwipeResponse response, boolean replayed) {

	}

	Outcome swipe(long userId, String requestId, long targetUserId, Action action) {
		if (userId == targetUserId) {
			throw SwipeRefusals.selfSwipe();
		}
		Instant now = now();
		String requestHash = requestHash(userId, targetUserId, action);
		if (!this.profiles.visibleTo(userId, targetUserId)) {
			// someone who blocked you is answered as someone who does not exist, and
			// nothing of theirs changes; a retry of an accepted swipe is answered as
			// before, whatever changed since
			SwipeRow known = this.history.find(userId, requestId)
				.orElseThrow(() -> SwipeRefusals.unknownTarget(targetUserId));
			return replay(known, requestHash);
		}
		OptionalLong inserted = LockConflicts
			.retried(() -> firstTransaction(requestId, requestHash, userId, targetUserId, action, now));
		if (inserted.isEmpty()) {
			// a known key (the unique-key check waited for its writer's commit), or an
			// active swipe on the same target under another key
			SwipeRow known = this.history.find(userId, requestId)
				.orElseThrow(() -> SwipeRefusals.alreadySwiped(targetUserId));
			return replay(known, requestHash);
		}
		SwipeRow swipe = new SwipeRow(inserted.getAsLong(), requestId, requestHash, userId, targetUserId, action,
				action.isLike() ? null : SwipeRow.NOT_MATCHED, null, null, now, null);
		recorded(swipe);
		if (!action.isLike()) {
			return new Outcome(swipe.response(), false);
		}
		return new Outcome(finish(swipe).response(), false);
	}

	/**
	 * TX 1: the swipe's insert, and for a limited action its count for the day in the
	 * same transaction, refused (and the insert rolled back) past the limit. A known key
	 * or an active swipe on the target inserts nothing and counts nothing. A swipe
	 * without a limit is the insert alone, committed on its own.
	 */
	private OptionalLong firstTransaction(String requestId, String requestHash, long userId, long targetUserId,
			Action action, Instant now) {
		if (this.limits.limitOf(action) == 0) {
			return this.history.insert(requestId, requestHash, userId, targetUserId, action, now);
		}
		return Objects.requireNonNull(this.transactions.execute((tx) -> {
			OptionalLong inserted = this.history.insert(requestId, requestHash, userId, targetUserId, action, now);
			if (inserted.isPresent() && !this.limits.take(userId, action, now)) {
				throw SwipeRefusals.dailyLimit(action, this.limits.limitOf(action), DailyLimits.untilReset(now));
			}
			return inserted;
		}));
	}

	/**
	 * The answer to a key seen before: the same payload gets the first answer (finishing
	 * a swipe still in flight or orphaned by a crash), another payload is refused.
	 */
	private Outcome replay(SwipeRow known, String requestHash) {
		if (!known.requestHash().equals(requestHash)) {
			throw SwipeRefusals.idempotencyKeyReused();
		}
		return new Outcome(finish(known).response(), true);
	}

	/**
	 * Decides an undecided like, once, whoever calls: the request, its concurrent retry,
	 * or the reconciler. Returns the finished row.
	 */
	SwipeRow finish(SwipeRow swipe) {
		if (swipe.finished()) {
			return swipe;
		}
		return LockConflicts.retried(() -> decide(swipe));
	}

	private SwipeRow decide(SwipeRow swipe) {
		long userId = swipe.userId();
		long targetUserId = swipe.targetUserId();
		boolean redisSaysMutual = false;
		try {
			redisSaysMutual = this.mutualLike.recordLike(userId, targetUserId,
					swipe.requestId()) == MutualLikeScript.Outcome.MUTUAL;
		}
		catch (DataAccessException redisUnavailable) {
			// Redis is a fast path, not the truth: MySQL decides below
			this.redisFallbacks.increment();
			log.debug("mutual-like script failed, deciding from swipe_history", redisUnavailable);
		}
		if (redisSaysMutual) {
			return secondTransaction(swipe);
		}
		// 0 and 2 are only Redis's view (flushed, failed over, evicted, or a retry):
		// MySQL confirms, in the statement that finishes a non-match
		if (this.history.finishWithoutMatchUnlessLikedBack(userId, swipe.requestId())) {
			return swipe.notMatched();
		}
		SwipeRow current = this.history.find(userId, swipe.requestId()).orElseThrow();
		return current.finished() ? current : secondTransaction(swipe);
	}

	/**
	 * TX 2: the match, this swipe's answer, the MATCH_CREATED row and the push (sent once
	 * it commits) together. The pair's two rows are locked in user-id order, so the two
	 * sides of a simultaneous match queue up instead of deadlocking, and a like cannot be
	 * rewound while its match is written.
	 */
	private SwipeRow secondTransaction(SwipeRow swipe) {
		long userId = swipe.userId();
		long targetUserId = swipe.targetUserId();
		return Objects.requireNonNull(this.transactions.execute((tx) -> {
			// first the pair's lock, which a block of the pair takes too: a block made
			// before is seen here, one made after waits and then ends the match
			boolean blocked = this.pairs.lockAndCheckBlocked(userId, targetUserId);
			SwipeRow own;
			boolean likedBack;
			if (userId < targetUserId) {
				own = this.history.lock(userId, swipe.requestId());
				likedBack = this.history.likesLocked(targetUserId, userId);
			}
			else {
				likedBack = this.history.likesLocked(targetUserId, userId);
				own = this.history.lock(userId, swipe.requestId());
			}
			if (own.finished()) {
				return own;
			}
			if (!likedBack || own.undoneAt() != null) {
				// Redis remembered a like that MySQL no longer has (rewound): no
				// match is invented
				this.history.finishWithoutMatch(userId, swipe.requestId());
				return own.notMatched();
			}
			if (blocked || this.matches.endedBetween(userId, targetUserId)) {
				// a blocked pair never matches, and an ended match is not made again
				this.history.finishWithoutMatch(userId, swipe.requestId());
				return own.notMatched();
			}
			Instant now = now();
			MatchStore.Created created = this.matches.createIfAbsent(userId, targetUserId, now);
			MatchRef match = created.match();
			// idempotent by event id: the pair's other side, racing here, adds nothing
			this.outbox.matchCreated(match, now);
			if (created.isNew()) {
				this.push.created(match);
			}
			this.history.finishWithMatch(userId, swipe.requestId(), match.matchId(), match.matchedAt());
			return own.matched(match.matchId(), match.matchedAt());
		}));
	}

	/**
	 * Takes back the user's last swipe, unless it is part of a match (then unmatch is the
	 * way). The pair field is cleared in Redis on a best-effort basis: a like Redis still
	 * remembers is checked against MySQL before it can make a match.
	 */
	void rewindLast(long userId) {
		SwipeRow latest = this.history.latest(userId)
			.filter((swipe) -> swipe.undoneAt() == null)
			.orElseThrow(SwipeRefusals::nothingToRewind);
		if (!latest.finished()) {
			finish(latest);
		}
		Instant now = now();
		SwipeRow rewound = LockConflicts.retried(() -> Objects.requireNonNull(this.transactions.execute((tx) -> {
			SwipeRow swipe = this.history.lockById(latest.swipeId())
				.filter((locked) -> locked.undoneAt() == null)
				.orElseThrow(SwipeRefusals::nothingToRewind);
			if (Objects.equals(swipe.responseStatus(), SwipeRow.MATCHED)
					|| (swipe.action().isLike() && this.matches.activeBetween(userId, swipe.targetUserId()))) {
				throw SwipeRefusals.rewindOfMatch();
			}
			this.history.undo(swipe.swipeId(), now);
			return swipe;
		})));
		if (rewound.action().isLike()) {
			try {
				this.mutualLike.forgetLike(userId, rewound.targetUserId());
			}
			catch (DataAccessException redisUnavailable) {
				// harmless: TX 2 re-checks every like Redis remembers against MySQL
				log.debug("could not clear the pair field of a rewound like", redisUnavailable);
			}
		}
		try {
			this.events.publishEvent(new SwipeRewound(userId, rewound.targetUserId(), rewound.action(), now));
		}
		catch (RuntimeException ex) {
			log.warn("a SwipeRewound listener failed for swipe {}", rewound.swipeId(), ex);
		}
	}

	private void recorded(SwipeRow swipe) {
		try {
			this.events.publishEvent(
					new SwipeRecorded(swipe.userId(), swipe.targetUserId(), swipe.action(), swipe.createdAt()));
		}
		catch (RuntimeException ex) {
			// the swipe is durable and answered; listeners (deck caches) rebuild from
			// swipe_history
			log.warn("a SwipeRecorded listener failed for swipe {}", swipe.swipeId(), ex);
		}
	}

	Instant now() {
		return this.clock.instant().truncatedTo(ChronoUnit.MICROS);
	}

	/**
	 * SHA-256 over the canonical payload: fixed field order, no whitespace or JSON
	 * quirks.
	 */
	static String requestHash(long userId, long targetUserId, Action action) {
		String canonical = "user_id=" + userId + "\ntarget_user_id=" + targetUserId + "\naction=" + action.name();
		try {
			return HexFormat.of()
				.formatHex(MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8)));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("every JDK has SHA-256", ex);
		}
	}

}
