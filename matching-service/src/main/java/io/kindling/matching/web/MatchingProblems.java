package io.kindling.matching.web;

import io.kindling.matching.admin.AdminTokenRefused;
import io.kindling.matching.ban.AlreadyBanned;
import io.kindling.matching.ban.BadBan;
import io.kindling.matching.ban.BadCursor;
import io.kindling.matching.ban.NoSuchBan;
import io.kindling.matching.chat.ChatRefused;
import io.kindling.matching.join.JoinRefused;
import io.kindling.matching.ratelimit.RateLimited;
import io.kindling.matching.report.NoRoomToReport;
import io.kindling.matching.session.Unauthenticated;
import io.kindling.matching.topic.TopicNameTaken;
import io.kindling.matching.topic.TopicNotFound;
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

	@ExceptionHandler(AdminTokenRefused.class)
	ResponseEntity<ProblemDetail> adminTokenRefused(AdminTokenRefused ex) {
		return Problems.unauthenticated(ex.getMessage());
	}

	@ExceptionHandler(ChatRefused.class)
	ResponseEntity<ProblemDetail> chatRefused(ChatRefused ex) {
		ProblemType type = switch (ex.reason()) {
			case NOT_IN_ROOM -> ProblemType.NOT_IN_ROOM;
			case NO_SUCH_ROOM -> ProblemType.NO_SUCH_ROOM;
			case ROOM_ENDED -> ProblemType.ROOM_ENDED;
			case BAD_HANDSHAKE -> ProblemType.INVALID_REQUEST;
		};
		return Problems.answer(type, ex.getMessage());
	}

	@ExceptionHandler(NoRoomToReport.class)
	ResponseEntity<ProblemDetail> noRoomToReport(NoRoomToReport ex) {
		return Problems.answer(ProblemType.NO_ROOM, ex.getMessage());
	}

	@ExceptionHandler(TopicNotFound.class)
	ResponseEntity<ProblemDetail> topicNotFound(TopicNotFound ex) {
		return Problems.answer(ProblemType.NO_SUCH_TOPIC, ex.getMessage());
	}

	@ExceptionHandler(TopicNameTaken.class)
	ResponseEntity<ProblemDetail> topicNameTaken(TopicNameTaken ex) {
		return Problems.answer(ProblemType.TOPIC_NAME_TAKEN, ex.getMessage());
	}

	@ExceptionHandler(BadBan.class)
	ResponseEntity<ProblemDetail> badBan(BadBan ex) {
		return Problems.answer(ProblemType.BAD_BAN, ex.getMessage());
	}

	@ExceptionHandler(AlreadyBanned.class)
	ResponseEntity<ProblemDetail> alreadyBanned(AlreadyBanned ex) {
		return Problems.answer(ProblemType.ALREADY_BANNED, ex.getMessage());
	}

	@ExceptionHandler(NoSuchBan.class)
	ResponseEntity<ProblemDetail> noSuchBan(NoSuchBan ex) {
		return Problems.answer(ProblemType.NO_SUCH_BAN, ex.getMessage());
	}

	@ExceptionHandler(BadCursor.class)
	ResponseEntity<ProblemDetail> badCursor(BadCursor ex) {
		return Problems.answer(ProblemType.BAD_CURSOR, ex.getMessage());
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
