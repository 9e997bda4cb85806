package io.kindling.swipe.swipe;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.Objects;
import java.util.OptionalLong;

import io.kindling.swipe.block.LockConflicts;
import io.kindling.swipe.block.PairLock;
import io.kindling.swipe.match.MatchRef;
import io.kindling.swipe.match.MatchStore;
import io.kindling.swipe.moderation.UserBans;
import io.kindling.swipe.profile.ProfileDirectory;
import io.kindling.swipe.security.Suspensions;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The swipe write path: TX 1 makes the swipe durable, the mutual-like script is the fast
 * path that tells whether the pair just matched, TX 2 writes the match with its outbox
 * row. MySQL decides whenever Redis cannot be trusted to know, so a lost Redis never
 * loses or invents a match; every step is idempotent, so a retry, a concurrent duplicate
 * and the reconciler all finish a swipe the same way.
 */
@Service
class Swipes {

	private static final Logger log = LoggerFactory.getLogger(Swipes.class);

	private final SwipeHistory history;

	private final ProfileDirectory profiles;

	private final MutualLikeScript mutualLike;

	private final MatchStore matches;

	private final PairLock pairs;

	private final UserBans bans;

	private final Suspensions suspensions;

	private final TransactionTemplate transactions;

	private final ApplicationEventPublisher events;

	private final SwipeProperties properties;

	private final Clock clock;

	private final SwipeSteps steps;

	private final Counter redisFallbacks;

	Swipes(SwipeHistory history, ProfileDirectory profiles, MutualLikeScript mutualLike, MatchStore matches,
			PairLock pairs, UserBans bans, Suspensions suspensions, TransactionTemplate transactions,
			ApplicationEventPublisher events, SwipeProperties properties, Clock clock, ObjectProvider<SwipeSteps> steps,
			MeterRegistry meters) {
		this.history = history;
		this.profiles = profiles;
		this.mutualLike = mutualLike;
		this.matches = matches;
		this.pairs = pairs;
		this.bans = bans;
		this.suspensions = suspensions;
		this.transactions = transactions;
		this.events = events;
		this.properties = properties;
		this.clock = clock;
		this.steps = steps.getIfAvailable(() -> SwipeSteps.NONE);
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
		SwipeRefused refusal = refusal(userId, targetUserId, action, now);
		if (refusal != null) {
			// a retry of an accepted swipe is answered as before, whatever changed since
			SwipeRow known = this.history.find(userId, requestId).orElseThrow(() -> refusal);
			return replay(known, requestHash);
		}
		OptionalLong inserted = LockConflicts
			.retried(() -> this.history.insert(requestId, requestHash, userId, targetUserId, action, now));
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
		this.steps.afterFirstTransaction(swipe);
		return new Outcome(finish(swipe).response(), false);
	}

	/**
	 * Why a new swipe would be refused before it is written, or null. "Already swiped" is
	 * not asked here: the insert's unique key answers it atomically.
	 */
	private @Nullable SwipeRefused refusal(long userId, long targetUserId, Action action, Instant now) {
		// a banned user is as absent as one with no profile
		if (!this.profiles.exists(targetUserId) || this.suspensions.of(targetUserId).isPresent()) {
			return SwipeRefusals.unknownTarget(targetUserId);
		}
		int limit = switch (action) {
			case LIKE -> this.properties.dailyLikes();
			case SUPER_LIKE -> this.properties.dailySuperLikes();
			case PASS -> 0;
		};
		Instant dayStart = startOfDay(now);
		if (limit > 0 && this.history.countSince(userId, action, dayStart, limit) >= limit) {
			return SwipeRefusals.dailyLimit(action, limit, Duration.between(now, dayStart.plus(Duration.ofDays(1))));
		}
		return null;
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
		this.steps.afterScript(swipe);
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
	 * TX 2: the match, this swipe's answer and the MATCH_CREATED row together. The pair's
	 * two rows are locked in user-id order, so the two sides of a simultaneous match
	 * queue up instead of deadlocking, and a like cannot be rewound while its match is
	 * written.
	 */
	private SwipeRow secondTransaction(SwipeRow swipe) {
		long userId = swipe.userId();
		long targetUserId = swipe.targetUserId();
		return Objects.requireNonNull(this.transactions.execute((tx) -> {
			// first the pair's lock, which a block of the pair takes too: a block made
			// before is seen here, one made after waits and then ends the match
			boolean blocked = this.pairs.lockAndCheckBlocked(userId, targetUserId);
			// then both profiles, which a ban locks too: a ban made before is seen here,
			// one made after waits and then ends the match
			boolean banned = this.bans.lockAndCheckBanned(userId, targetUserId);
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
			if (blocked || banned || this.matches.endedBetween(userId, targetUserId)) {
				// a blocked pair or a banned user never matches, and an ended match is
				// not made again
				this.history.finishWithoutMatch(userId, swipe.requestId());
				return own.notMatched();
			}
			this.steps.beforeMatchWritten(own);
			MatchRef match = this.matches.createIfAbsent(userId, targetUserId, now());
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
			this.events.publishEvent(new SwipeRewound(userId, rewound.targetUserId(), rewound.action().name(), now));
		}
		catch (RuntimeException ex) {
			log.warn("a SwipeRewound listener failed for swipe {}", rewound.swipeId(), ex);
		}
	}

	private void recorded(SwipeRow swipe) {
		try {
			this.events.publishEvent(
					new SwipeRecorded(swipe.userId(), swipe.targetUserId(), swipe.action().name(), swipe.createdAt()));
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

	static Instant startOfDay(Instant now) {
		return LocalDate.ofInstant(now, ZoneOffset.UTC).atStartOfDay(ZoneOffset.UTC).toInstant();
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
