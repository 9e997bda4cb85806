package io.kindling.swipe.swipe;

import java.time.Duration;

import io.kindling.support.web.Refusal;
import io.kindling.support.web.Refused;
import io.kindling.swipe.profile.ProfileRefusals;

import org.springframework.http.HttpStatus;

/** The ways a swipe or a rewind is refused, each with the words the caller reads. */
enum SwipeRefusals implements Refusal {

	BAD_IDEMPOTENCY_KEY("bad-idempotency-key", HttpStatus.BAD_REQUEST, "Bad Idempotency-Key"),

	BAD_SWIPE("bad-swipe", HttpStatus.BAD_REQUEST, "Bad swipe"),

	SELF_SWIPE("self-swipe", HttpStatus.BAD_REQUEST, "Self swipe"),

	ALREADY_SWIPED("already-swiped", HttpStatus.CONFLICT, "Already swiped"),

	IDEMPOTENCY_KEY_REUSED("idempotency-key-reused", HttpStatus.CONFLICT, "Idempotency-Key reused"),

	DAILY_LIMIT_REACHED("daily-limit-reached", HttpStatus.TOO_MANY_REQUESTS, "Daily limit reached"),

	NOTHING_TO_REWIND("nothing-to-rewind", HttpStatus.NOT_FOUND, "Nothing to rewind"),

	SWIPE_MADE_A_MATCH("swipe-made-a-match", HttpStatus.CONFLICT, "Swipe made a match");

	private final Type type;

	SwipeRefusals(String slug, HttpStatus status, String title) {
		this.type = new Type(slug, status, title);
	}

	@Override
	public Type type() {
		return this.type;
	}

	static Refused badIdempotencyKey(String why) {
		return BAD_IDEMPOTENCY_KEY.refused(why);
	}

	static Refused badSwipe(String why) {
		return BAD_SWIPE.refused(why);
	}

	static Refused selfSwipe() {
		return SELF_SWIPE.refused("You cannot swipe on yourself.");
	}

	static Refused unknownTarget(long targetUserId) {
		return ProfileRefusals.unknownTarget(targetUserId);
	}

	static Refused alreadySwiped(long targetUserId) {
		return ALREADY_SWIPED
			.refused("You already swiped on user " + targetUserId + "; rewind it first to change your mind.");
	}

	static Refused idempotencyKeyReused() {
		return IDEMPOTENCY_KEY_REUSED
			.refused("This Idempotency-Key was used for another swipe; use a new key for a new swipe.");
	}

	static Refused dailyLimit(Action action, int limit, Duration untilReset) {
		return DAILY_LIMIT_REACHED
			.refused("You have used your " + limit + " " + ((action == Action.SUPER_LIKE) ? "super likes" : "likes")
					+ " for today (UTC); more after midnight UTC.", untilReset);
	}

	static Refused nothingToRewind() {
		return NOTHING_TO_REWIND.refused("Your last swipe is already rewound, or you have not swiped yet.");
	}

	static Refused rewindOfMatch() {
		return SWIPE_MADE_A_MATCH.refused("Your last swipe is part of a match; unmatch instead.");
	}

}
