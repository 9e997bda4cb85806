package io.kindling.matching.web;

import io.kindling.matching.join.JoinRefused;
import io.kindling.matching.ratelimit.RateLimited;
import io.kindling.matching.session.Unauthenticated;
import io.kindling.support.web.ProblemType;
import io.kindling.support.web.Problems;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Rooms' own refusals as problem details; everything else (bad JSON, wrong method, store
 * outages) is the shared web edge's, asked after this one.
 */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
class MatchingProblems {

	@ExceptionHandler(Unauthenticated.class)
	ResponseEntity<ProblemDetail> unauthenticated(Unauthenticated ex) {
		return Problems.unauthenticated(ex.getMessage());
	}

	@ExceptionHandler(RateLimited.class)
	ResponseEntity<ProblemDetail> rateLimited(RateLimited ex) {
		return Problems.answer(ProblemType.RATE_LIMITED, ex.getMessage(), Problems.retryAfter(ex.retryAfterSeconds()));
	}

	@ExceptionHandler(JoinRefused.class)
	ResponseEntity<ProblemDetail> joinRefused(JoinRefused ex) {
		ProblemType type = switch (ex) {
			case JoinRefused.Banned banned -> ProblemType.BANNED;
			case JoinRefused.TopicUnavailable unavailable -> ProblemType.TOPIC_UNAVAILABLE;
			case JoinRefused.AlreadyJoined joined -> ProblemType.ALREADY_JOINED;
			default -> ProblemType.INVALID_REQUEST;
		};
		return Problems.answer(type, ex.getMessage());
	}

}
