package io.kindling.relay.web;

import io.kindling.relay.parked.AdminTokenMissing;
import io.kindling.relay.parked.ParkedRowNotFound;
import io.kindling.support.web.ProblemType;
import io.kindling.support.web.Problems;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * The admin API's own refusals as problem details; everything else is the shared web
 * edge's, asked after this one.
 */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
class RelayProblems {

	@ExceptionHandler(AdminTokenMissing.class)
	ResponseEntity<ProblemDetail> adminTokenMissing(AdminTokenMissing ex) {
		return Problems.unauthenticated(ex.getMessage());
	}

	@ExceptionHandler(ParkedRowNotFound.class)
	ResponseEntity<ProblemDetail> parkedRowNotFound(ParkedRowNotFound ex) {
		return Problems.answer(ProblemType.PARKED_ROW_NOT_FOUND, ex.getMessage());
	}

}
