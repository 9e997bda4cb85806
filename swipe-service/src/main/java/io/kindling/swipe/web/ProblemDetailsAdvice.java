package io.kindling.swipe.web;

import java.net.URI;
import java.util.Arrays;
import java.util.stream.Collectors;

import jakarta.validation.ConstraintViolationException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.exc.MismatchedInputException;

import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.transaction.TransactionException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * The service's one error shape: Spring MVC's own failures (malformed JSON, wrong types,
 * missing headers, validation) come out as 4xx problem details through the base class;
 * feature refusals through {@link ProblemException}.
 */
@RestControllerAdvice
class ProblemDetailsAdvice extends ResponseEntityExceptionHandler {

	private static final Logger log = LoggerFactory.getLogger(ProblemDetailsAdvice.class);

	private static final URI BLANK = URI.create("about:blank");

	@ExceptionHandler(ProblemException.class)
	ResponseEntity<ProblemDetail> refused(ProblemException ex) {
		ProblemDetail problem = Problems.of(ex.status(), ex.title(), ex.detail());
		HttpHeaders headers = new HttpHeaders();
		ex.headers().forEach(headers::set);
		return ResponseEntity.status(ex.status()).headers(headers).body(problem);
	}

	@ExceptionHandler(IllegalArgumentException.class)
	ResponseEntity<ProblemDetail> badInput(IllegalArgumentException ex) {
		ProblemDetail problem = Problems.of(HttpStatus.BAD_REQUEST, "Bad request", ex.getMessage());
		return ResponseEntity.badRequest().body(problem);
	}

	@ExceptionHandler(ConstraintViolationException.class)
	ResponseEntity<ProblemDetail> invalid(ConstraintViolationException ex) {
		ProblemDetail problem = Problems.of(HttpStatus.BAD_REQUEST, "Bad request", ex.getMessage());
		return ResponseEntity.badRequest().body(problem);
	}

	/**
	 * A body that is not JSON, or JSON that does not fit: which field, and for an enum
	 * the values it takes, instead of the base class's bare "Failed to read request".
	 */
	@Override
	protected @Nullable ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
			HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		ProblemDetail problem = Problems.of(HttpStatus.BAD_REQUEST, "Unreadable request body",
				unreadable(ex.getMostSpecificCause()));
		return handleExceptionInternal(ex, problem, headers, HttpStatus.BAD_REQUEST, request);
	}

	static String unreadable(Throwable cause) {
		if (cause instanceof MismatchedInputException mismatch && !mismatch.getPath().isEmpty()) {
			String field = mismatch.getPath()
				.stream()
				.map((step) -> (step.getPropertyName() != null) ? step.getPropertyName() : "[" + step.getIndex() + "]")
				.collect(Collectors.joining("."))
				.replace(".[", "[");
			Class<?> type = mismatch.getTargetType();
			if (type != null && type.isEnum()) {
				return field + " must be one of " + Arrays.toString(type.getEnumConstants());
			}
			return field + " has the wrong type" + ((type != null) ? " (expected " + type.getSimpleName() + ")" : "");
		}
		return "the body must be one JSON object with the documented fields";
	}

	/**
	 * MariaDB (or Redis where nothing stands in for it) did not answer: a 503 the client
	 * may retry, typed as matching-service types it.
	 */
	@ExceptionHandler({ DataAccessException.class, TransactionException.class })
	ResponseEntity<ProblemDetail> unavailable(RuntimeException ex) {
		log.warn("A store failed", ex);
		ProblemDetail problem = Problems.of(HttpStatus.SERVICE_UNAVAILABLE, "Temporarily unavailable",
				"A backing store did not answer; retrying with the same Idempotency-Key is safe.");
		problem.setType(Problems.type("unavailable"));
		return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header(HttpHeaders.RETRY_AFTER, "1").body(problem);
	}

	// A fault of ours still answers in the one error shape, without a stack trace.
	@ExceptionHandler(RuntimeException.class)
	ResponseEntity<ProblemDetail> failed(RuntimeException ex) {
		log.error("request failed", ex);
		ProblemDetail problem = Problems.of(HttpStatus.INTERNAL_SERVER_ERROR, "Internal error",
				"The request could not be completed; retrying with the same Idempotency-Key is safe.");
		return ResponseEntity.internalServerError().body(problem);
	}

	/**
	 * Spring MVC's own problems (415, 405, 404...) get a type too, as in
	 * matching-service.
	 */
	@Override
	protected ResponseEntity<Object> createResponseEntity(@Nullable Object body, HttpHeaders headers,
			HttpStatusCode statusCode, WebRequest request) {
		if (body instanceof ProblemDetail problem && (problem.getType() == null || BLANK.equals(problem.getType()))) {
			problem.setType(Problems.type("http-" + statusCode.value()));
		}
		return super.createResponseEntity(body, headers, statusCode, request);
	}

}
