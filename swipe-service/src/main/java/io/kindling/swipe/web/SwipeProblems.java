package io.kindling.swipe.web;

import io.kindling.support.web.ProblemType;
import io.kindling.support.web.Problems;
import io.kindling.swipe.block.BlockRefused;
import io.kindling.swipe.boost.BoostActive;
import io.kindling.swipe.boost.BoostCooldown;
import io.kindling.swipe.boost.NoActiveBoost;
import io.kindling.swipe.match.MatchRefused;
import io.kindling.swipe.message.MessageRefused;
import io.kindling.swipe.paging.Cursor;
import io.kindling.swipe.profile.ProfileRefused;
import io.kindling.swipe.push.BadLastEventId;
import io.kindling.swipe.report.ReportRefused;
import io.kindling.swipe.swipe.SwipeRefused;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Swipes' own refusals as problem details; everything else (bad JSON, wrong method, store
 * outages) is the shared web edge's, asked after this one.
 */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
class SwipeProblems {

	@ExceptionHandler(SwipeRefused.class)
	ResponseEntity<ProblemDetail> swipeRefused(SwipeRefused ex) {
		ProblemType type = switch (ex.reason()) {
			case BAD_IDEMPOTENCY_KEY -> ProblemType.BAD_IDEMPOTENCY_KEY;
			case BAD_SWIPE -> ProblemType.BAD_SWIPE;
			case SELF_SWIPE -> ProblemType.SELF_SWIPE;
			case UNKNOWN_TARGET -> ProblemType.UNKNOWN_TARGET;
			case ALREADY_SWIPED -> ProblemType.ALREADY_SWIPED;
			case IDEMPOTENCY_KEY_REUSED -> ProblemType.IDEMPOTENCY_KEY_REUSED;
			case DAILY_LIMIT -> ProblemType.DAILY_LIMIT_REACHED;
			case NOTHING_TO_REWIND -> ProblemType.NOTHING_TO_REWIND;
			case REWIND_OF_MATCH -> ProblemType.SWIPE_MADE_A_MATCH;
		};
		if (ex.retryAfterSeconds() > 0) {
			return Problems.answer(type, ex.getMessage(), Problems.retryAfter(ex.retryAfterSeconds()));
		}
		return Problems.answer(type, ex.getMessage());
	}

	@ExceptionHandler(ProfileRefused.class)
	ResponseEntity<ProblemDetail> profileRefused(ProfileRefused ex) {
		ProblemType type = switch (ex.reason()) {
			case TOO_YOUNG -> ProblemType.TOO_YOUNG;
			case BAD_AGE_RANGE -> ProblemType.BAD_AGE_RANGE;
			case NO_SUCH_PROFILE -> ProblemType.NO_SUCH_PROFILE;
			case NO_PROFILE -> ProblemType.NO_PROFILE;
			case TOO_MANY_LOCATION_CHANGES -> ProblemType.TOO_MANY_LOCATION_CHANGES;
		};
		if (ex.retryAfterSeconds() > 0) {
			return Problems.answer(type, ex.getMessage(), Problems.retryAfter(ex.retryAfterSeconds()));
		}
		return Problems.answer(type, ex.getMessage());
	}

	@ExceptionHandler(MatchRefused.class)
	ResponseEntity<ProblemDetail> matchRefused(MatchRefused ex) {
		ProblemType type = switch (ex.reason()) {
			case NO_SUCH_MATCH -> ProblemType.NO_SUCH_MATCH;
		};
		return Problems.answer(type, ex.getMessage());
	}

	@ExceptionHandler(MessageRefused.class)
	ResponseEntity<ProblemDetail> messageRefused(MessageRefused ex) {
		ProblemType type = switch (ex.reason()) {
			case NO_SUCH_MATCH -> ProblemType.NO_SUCH_MATCH;
			case BAD_MESSAGE -> ProblemType.BAD_MESSAGE;
			case CLIENT_MESSAGE_ID_REUSED -> ProblemType.CLIENT_MESSAGE_ID_REUSED;
			case NO_SUCH_MESSAGE -> ProblemType.NO_SUCH_MESSAGE;
			case RATE_LIMITED -> ProblemType.RATE_LIMITED;
		};
		if (ex.retryAfterSeconds() > 0) {
			return Problems.answer(type, ex.getMessage(), Problems.retryAfter(ex.retryAfterSeconds()));
		}
		return Problems.answer(type, ex.getMessage());
	}

	@ExceptionHandler(Cursor.BadCursor.class)
	ResponseEntity<ProblemDetail> badCursor(Cursor.BadCursor ex) {
		return Problems.answer(ProblemType.BAD_CURSOR, ex.getMessage());
	}

	@ExceptionHandler(BlockRefused.class)
	ResponseEntity<ProblemDetail> blockRefused(BlockRefused ex) {
		ProblemType type = switch (ex.reason()) {
			case BAD_BLOCK -> ProblemType.BAD_BLOCK;
			case UNKNOWN_USER -> ProblemType.UNKNOWN_TARGET;
		};
		return Problems.answer(type, ex.getMessage());
	}

	@ExceptionHandler(ReportRefused.class)
	ResponseEntity<ProblemDetail> reportRefused(ReportRefused ex) {
		return Problems.answer(ProblemType.BAD_REPORT, ex.getMessage());
	}

	@ExceptionHandler(BadLastEventId.class)
	ResponseEntity<ProblemDetail> badLastEventId(BadLastEventId ex) {
		return Problems.answer(ProblemType.INVALID_REQUEST, ex.getMessage());
	}

	@ExceptionHandler(BoostActive.class)
	ResponseEntity<ProblemDetail> boostActive(BoostActive ex) {
		return Problems.answer(ProblemType.BOOST_ACTIVE, ex.getMessage());
	}

	@ExceptionHandler(NoActiveBoost.class)
	ResponseEntity<ProblemDetail> noActiveBoost(NoActiveBoost ex) {
		return Problems.answer(ProblemType.NO_ACTIVE_BOOST, ex.getMessage());
	}

	@ExceptionHandler(BoostCooldown.class)
	ResponseEntity<ProblemDetail> boostCooldown(BoostCooldown ex) {
		return Problems.answer(ProblemType.BOOST_COOLDOWN, ex.getMessage(),
				Problems.retryAfter(ex.retryAfterSeconds()));
	}

}
