package io.kindling.swipe.swipe;

import java.time.Duration;
import java.util.Map;

import io.kindling.swipe.web.ProblemException;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

/** The ways a swipe or a rewind is refused, each one problem detail. */
final class SwipeRefusals {

	private SwipeRefusals() {
	}

	static ProblemException badIdempotencyKey(String why) {
		return new ProblemException(HttpStatus.BAD_REQUEST, "Bad Idempotency-Key", why);
	}

	static ProblemException badSwipe(String why) {
		return new ProblemException(HttpStatus.BAD_REQUEST, "Bad swipe", why);
	}

	static ProblemException selfSwipe() {
		return new ProblemException(HttpStatus.BAD_REQUEST, "Self swipe", "You cannot swipe on yourself.");
	}

	static ProblemException unknownTarget(long targetUserId) {
		return new ProblemException(HttpStatus.UNPROCESSABLE_CONTENT, "Unknown target",
				"User " + targetUserId + " has no profile.");
	}

	static ProblemException alreadySwiped(long targetUserId) {
		return new ProblemException(HttpStatus.CONFLICT, "Already swiped",
				"You already swiped on user " + targetUserId + "; rewind it first to change your mind.");
	}

	static ProblemException idempotencyKeyReused() {
		return new ProblemException(HttpStatus.CONFLICT, "Idempotency-Key reused",
				"This Idempotency-Key was used for another swipe; use a new key for a new swipe.");
	}

	static ProblemException dailyLimit(Action action, int limit, Duration untilReset) {
		long seconds = Math.max(1, untilReset.toSeconds() + ((untilReset.toNanosPart() > 0) ? 1 : 0));
		return new ProblemException(HttpStatus.TOO_MANY_REQUESTS, "Daily limit reached",
				"You have used your " + limit + " " + ((action == Action.SUPER_LIKE) ? "super likes" : "likes")
						+ " for today (UTC); more after midnight UTC.",
				Map.of(HttpHeaders.RETRY_AFTER, String.valueOf(seconds)));
	}

	static ProblemException nothingToRewind() {
		return new ProblemException(HttpStatus.NOT_FOUND, "Nothing to rewind",
				"Your last swipe is already rewound, or you have not swiped yet.");
	}

	static ProblemException rewindOfMatch() {
		return new ProblemException(HttpStatus.CONFLICT, "Swipe made a match",
				"Your last swipe is part of a match; unmatch instead.");
	}

}
