package io.kindling.matching.web;

import java.net.URI;
import java.util.stream.Collectors;

import io.kindling.matching.join.JoinRefused;
import io.kindling.matching.ratelimit.RateLimited;
import io.kindling.matching.session.Unauthenticated;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.transaction.TransactionException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * The service's one error shape: RFC 9457 problem details, mapped from the domain's few
 * exceptions; Spring MVC's own (bad JSON, wrong method, unknown path) come through the
 * base class.
 */
@RestControllerAdvice
class ProblemDetails extends ResponseEntityExceptionHandler {

	private static final Logger log = LoggerFactory.getLogger(ProblemDetails.class);

	private static final String TYPES = "https://kindling.io/problems/";

	@ExceptionHandler(Unauthenticated.class)
	ResponseEntity<ProblemDetail> unauthenticated(Unauthenticated ex) {
		return ResponseEntity.status(HttpStatus.UNAUTHORIZED)
			.header(HttpHeaders.WWW_AUTHENTICATE, "Bearer")
			.body(problem(HttpStatus.UNAUTHORIZED, "unauthenticated", "Session required", ex.getMessage()));
	}

	@ExceptionHandler(RateLimited.class)
	ResponseEntity<ProblemDetail> rateLimited(RateLimited ex) {
		return ResponseEntity.status(HttpStatus.TOO_MANY_REQUESTS)
			.header(HttpHeaders.RETRY_AFTER, String.valueOf(ex.retryAfterSeconds()))
			.body(problem(HttpStatus.TOO_MANY_REQUESTS, "rate-limited", "Too many requests", ex.getMessage()));
	}

	@ExceptionHandler(JoinRefused.class)
	ResponseEntity<ProblemDetail> joinRefused(JoinRefused ex) {
		ProblemDetail problem = switch (ex) {
			case JoinRefused.Banned banned -> problem(HttpStatus.FORBIDDEN, "banned", "Banned", ex.getMessage());
			case JoinRefused.TopicUnavailable unavailable ->
				problem(HttpStatus.BAD_REQUEST, "topic-unavailable", "Topic unavailable", ex.getMessage());
			case JoinRefused.AlreadyJoined joined ->
				problem(HttpStatus.CONFLICT, "already-joined", "Already waiting or in a room", ex.getMessage());
			default -> problem(HttpStatus.BAD_REQUEST, "join-refused", "Join refused", ex.getMessage());
		};
		return ResponseEntity.status(problem.getStatus()).body(problem);
	}

	/** Redis or MySQL unreachable: the client may retry; never a stack trace. */
	@ExceptionHandler({ RedisConnectionFailureException.class, DataAccessException.class, TransactionException.class })
	ResponseEntity<ProblemDetail> unavailable(RuntimeException ex) {
		log.warn("A store failed", ex);
		return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
			.header(HttpHeaders.RETRY_AFTER, "1")
			.body(problem(HttpStatus.SERVICE_UNAVAILABLE, "unavailable", "Temporarily unavailable",
					"a backing store did not answer; try again shortly"));
	}

	@Override
	protected @Nullable ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException ex,
			HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		String detail = ex.getBindingResult()
			.getFieldErrors()
			.stream()
			.map((error) -> snakeCase(error.getField()) + " " + error.getDefaultMessage())
			.sorted()
			.collect(Collectors.joining("; "));
		return ResponseEntity.badRequest()
			.body(problem(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request", detail));
	}

	@Override
	protected @Nullable ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
			HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		if (BodySizeLimit.exceeded(ex)) {
			return ResponseEntity.status(HttpStatus.CONTENT_TOO_LARGE)
				.body(problem(HttpStatus.CONTENT_TOO_LARGE, "body-too-large", "Request body too large",
						"the request body is larger than this service accepts"));
		}
		return ResponseEntity.badRequest()
			.body(problem(HttpStatus.BAD_REQUEST, "unreadable-body", "Unreadable request body",
					"the body must be JSON like {\"topic_id\": 42, \"size\": 3}"));
	}

	/** Spring MVC's own problems (415, 405, 404...) get a type too, like every other. */
	@Override
	protected ResponseEntity<Object> createResponseEntity(@Nullable Object body, HttpHeaders headers,
			HttpStatusCode statusCode, WebRequest request) {
		if (body instanceof ProblemDetail problem
				&& (problem.getType() == null || URI.create("about:blank").equals(problem.getType()))) {
			problem.setType(URI.create(TYPES + "http-" + statusCode.value()));
		}
		return super.createResponseEntity(body, headers, statusCode, request);
	}

	static ProblemDetail problem(HttpStatus status, String type, String title, @Nullable String detail) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
		problem.setType(URI.create(TYPES + type));
		problem.setTitle(title);
		return problem;
	}

	private static String snakeCase(String field) {
		return field.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(java.util.Locale.ROOT);
	}

}
