package io.kindling.swipe.swipe;

import java.time.Duration;

import io.kindling.swipe.swipe.SwipeRefused.Reason;

/** The ways a swipe or a rewind is refused, each with the words the caller reads. */
final class SwipeRefusals {

	private SwipeRefusals() {
	}

	static SwipeRefused badIdempotencyKey(String why) {
		return new SwipeRefused(Reason.BAD_IDEMPOTENCY_KEY, why);
	}

	static SwipeRefused badSwipe(String why) {
		return new SwipeRefused(Reason.BAD_SWIPE, why);
	}

	static SwipeRefused selfSwipe() {
		return new SwipeRefused(Reason.SELF_SWIPE, "You cannot swipe on yourself.");
	}

	static SwipeRefused unknownTarget(long targetUserId) {
		return new SwipeRefused(Reason.UNKNOWN_TARGET, "User " + targetUserId + " has no profile.");
	}

	static SwipeRefused alreadySwiped(long targetUserId) {
		return new SwipeRefused(Reason.ALREADY_SWIPED,
				"You already swiped on user " + targetUserId + "; rewind it first to change your mind.");
	}

	static SwipeRefused idempotencyKeyReused() {
		return new SwipeRefused(Reason.IDEMPOTENCY_KEY_REUSED,
				"This Idempotency-Key was used for another swipe; use a new key for a new swipe.");
	}

	static SwipeRefused dailyLimit(Action action, int limit, Duration untilReset) {
		long seconds = Math.max(1, untilReset.toSeconds() + ((untilReset.toNanosPart() > 0) ? 1 : 0));
		return new SwipeRefused(Reason.DAILY_LIMIT,
				"You have used your " + limit + " " + ((action == Action.SUPER_LIKE) ? "super likes" : "likes")
						+ " for today (UTC); more after midnight UTC.",
				seconds);
	}

	static SwipeRefused nothingToRewind() {
		return new SwipeRefused(Reason.NOTHING_TO_REWIND,
				"Your last swipe is already rewound, or you have not swiped yet.");
	}

	static SwipeRefused rewindOfMatch() {
		return new SwipeRefused(Reason.REWIND_OF_MATCH, "Your last swipe is part of a match; unmatch instead.");
	}

}
