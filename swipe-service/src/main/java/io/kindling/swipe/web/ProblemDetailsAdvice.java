package io.kindling.swipe.web;

import jakarta.validation.ConstraintViolationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * The service's one error shape: Spring MVC's own failures (malformed JSON, wrong types,
 * missing headers, validation) come out as 4xx problem details through the base class;
 * feature refusals through {@link ProblemException}.
 */
@RestControllerAdvice
class ProblemDetailsAdvice extends ResponseEntityExceptionHandler {

	private static final Logger log = LoggerFactory.getLogger(ProblemDetailsAdvice.class);

	@ExceptionHandler(ProblemException.class)
	ResponseEntity<ProblemDetail> refused(ProblemException ex) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(ex.status(), ex.detail());
		problem.setTitle(ex.title());
		HttpHeaders headers = new HttpHeaders();
		ex.headers().forEach(headers::set);
		return ResponseEntity.status(ex.status()).headers(headers).body(problem);
	}

	@ExceptionHandler(IllegalArgumentException.class)
	ResponseEntity<ProblemDetail> badInput(IllegalArgumentException ex) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, ex.getMessage());
		problem.setTitle("Bad request");
		return ResponseEntity.badRequest().body(problem);
	}

	@ExceptionHandler(ConstraintViolationException.class)
	ResponseEntity<ProblemDetail> invalid(ConstraintViolationException ex) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, ex.getMessage());
		problem.setTitle("Bad request");
		return ResponseEntity.badRequest().body(problem);
	}

	// A fault of ours still answers in the one error shape, without a stack trace.
	@ExceptionHandler(RuntimeException.class)
	ResponseEntity<ProblemDetail> failed(RuntimeException ex) {
		log.error("request failed", ex);
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.INTERNAL_SERVER_ERROR,
				"The request could not be completed; retrying with the same Idempotency-Key is safe.");
		problem.setTitle("Internal error");
		return ResponseEntity.internalServerError().body(problem);
	}

}
