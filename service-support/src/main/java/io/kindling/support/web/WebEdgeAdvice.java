package io.kindling.support.web;

import java.time.Duration;
import java.util.Arrays;
import java.util.stream.Collectors;

import jakarta.validation.ConstraintViolationException;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;

import org.springframework.beans.TypeMismatchException;
import org.springframework.context.i18n.LocaleContextHolder;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.ServletRequestBindingException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.multipart.MaxUploadSizeExceededException;
import org.springframework.web.multipart.MultipartException;
import org.springframework.web.servlet.NoHandlerFoundException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import org.springframework.web.servlet.resource.NoResourceFoundException;

/**
 * Every service's error mapping: a {@link Refused} becomes its refusal's problem detail,
 * and whatever Spring MVC, Jackson, validation or a store throws becomes a typed one too.
 * It answers last, after any advice a service adds of its own.
 */
@RestControllerAdvice
@Order(Ordered.LOWEST_PRECEDENCE)
class WebEdgeAdvice extends ResponseEntityExceptionHandler {

	private static final Logger log = LoggerFactory.getLogger(WebEdgeAdvice.class);

	private final Duration overloadRetryAfter;

	/**
	 * @param overloadRetryAfter the wait an {@code overloaded} refusal says when it names
	 * none ({@code kindling.web.overload.retry-after})
	 */
	WebEdgeAdvice(Duration overloadRetryAfter) {
		this.overloadRetryAfter = overloadRetryAfter;
	}

	/**
	 * A refusal a service declared, with the words it gave. Every {@code overloaded}
	 * answer says the one wait the operator set, whichever bound refused.
	 */
	@ExceptionHandler(Refused.class)
	ResponseEntity<ProblemDetail> refused(Refused ex) {
		if (ex.refusal() == ProblemType.OVERLOADED && ex.retryAfter().isEmpty()) {
			return Problems.answer(ProblemType.OVERLOADED.refused(ex.getMessage(), this.overloadRetryAfter));
		}
		return Problems.answer(ex);
	}

	@ExceptionHandler(ConstraintViolationException.class)
	ResponseEntity<ProblemDetail> invalid(ConstraintViolationException ex) {
		String detail = ex.getConstraintViolations()
			.stream()
			.map((violation) -> lastNode(violation.getPropertyPath().toString()) + " " + violation.getMessage())
			.sorted()
			.collect(Collectors.joining("; "));
		return Problems.answer(ProblemType.INVALID_REQUEST, detail);
	}

	/** A path variable or query parameter that does not convert to its type. */
	@ExceptionHandler(MethodArgumentTypeMismatchException.class)
	ResponseEntity<ProblemDetail> typeMismatch(MethodArgumentTypeMismatchException ex) {
		return Problems.answer(ProblemType.INVALID_REQUEST, ex.getName() + " has the wrong type");
	}

	/** Tomcat refuses a query or form parameter that is not validly percent-encoded. */
	@ExceptionHandler(InvalidParameterException.class)
	ResponseEntity<ProblemDetail> badParameter(InvalidParameterException ex) {
		return Problems.answer(ProblemType.BAD_REQUEST, "a query parameter is not validly percent-encoded");
	}

	/**
	 * A multipart body that the multipart parser could not read: no endpoint takes one.
	 */
	@ExceptionHandler(MultipartException.class)
	ResponseEntity<ProblemDetail> multipart(MultipartException ex) {
		if (ex instanceof MaxUploadSizeExceededException) {
			return Problems.answer(ProblemType.CONTENT_TOO_LARGE, "the request body is too large");
		}
		return Problems.answer(ProblemType.UNSUPPORTED_MEDIA_TYPE, "no endpoint takes multipart bodies; send JSON");
	}

	/**
	 * A fault of ours: logged in full, answered without a word of it. Redis or MySQL not
	 * answering is 503, to retry; a store that answered with an error (a cross-slot
	 * command, a failing script, bad SQL) is a bug like any other.
	 */
	@ExceptionHandler(RuntimeException.class)
	ResponseEntity<ProblemDetail> failed(RuntimeException ex) {
		if (BodySizeLimit.exceeded(ex)) {
			return Problems.answer(ProblemType.CONTENT_TOO_LARGE, "the request body is too large");
		}
		if (StoreOutages.isOutage(ex)) {
			log.warn("A store failed", ex);
			return Problems.answer(ProblemType.UNAVAILABLE,
					"a backing store did not answer; retrying the same request is safe", Problems.retryAfter(1));
		}
		log.error("request failed", ex);
		return Problems.answer(ProblemType.INTERNAL_ERROR, "the request could not be completed");
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
		return handleExceptionInternal(ex, Problems.of(ProblemType.INVALID_REQUEST, detail), headers, status, request);
	}

	@Override
	protected @Nullable ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
			HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		if (BodySizeLimit.exceeded(ex)) {
			ProblemDetail problem = Problems.of(ProblemType.CONTENT_TOO_LARGE, "the request body is too large");
			return handleExceptionInternal(ex, problem, headers, ProblemType.CONTENT_TOO_LARGE.status(), request);
		}
		ProblemDetail problem = Problems.of(ProblemType.UNREADABLE_REQUEST_BODY, unreadable(ex));
		return handleExceptionInternal(ex, problem, headers, ProblemType.UNREADABLE_REQUEST_BODY.status(), request);
	}

	/**
	 * Every problem Spring MVC builds gets the type of its failure, never about:blank.
	 */
	@Override
	protected @Nullable ResponseEntity<Object> handleExceptionInternal(Exception ex, @Nullable Object body,
			HttpHeaders headers, HttpStatusCode statusCode, WebRequest request) {
		if (body == null && ex instanceof ErrorResponse response) {
			body = response.updateAndGetBody(getMessageSource(), LocaleContextHolder.getLocale());
		}
		// a problem Spring built may have no type at all (a parameter failing @Pattern)
		if (body instanceof ProblemDetail problem
				&& (problem.getType() == null || !problem.getType().toString().startsWith(Refusal.BASE))) {
			ProblemType type = typeOf(ex, statusCode);
			problem.setType(type.uri());
			problem.setTitle(type.title());
			if (type.status().value() != statusCode.value()) {
				problem.setStatus(type.status());
				statusCode = type.status();
			}
		}
		if (statusCode.is5xxServerError()) {
			log.error("request failed", ex);
		}
		if (body instanceof ProblemDetail && headers.getContentType() == null) {
			// set here: negotiation would pick a handler's produces, JSON
			HttpHeaders problem = new HttpHeaders();
			problem.putAll(headers);
			problem.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
			headers = problem;
		}
		return super.handleExceptionInternal(ex, body, headers, statusCode, request);
	}

	private static ProblemType typeOf(Exception ex, HttpStatusCode status) {
		return switch (ex) {
			case HttpRequestMethodNotSupportedException notSupported -> ProblemType.METHOD_NOT_ALLOWED;
			case HttpMediaTypeNotSupportedException notSupported -> ProblemType.UNSUPPORTED_MEDIA_TYPE;
			case HttpMediaTypeNotAcceptableException notAcceptable -> ProblemType.NOT_ACCEPTABLE;
			case NoHandlerFoundException notFound -> ProblemType.NOT_FOUND;
			case NoResourceFoundException notFound -> ProblemType.NOT_FOUND;
			case MaxUploadSizeExceededException tooLarge -> ProblemType.CONTENT_TOO_LARGE;
			case HandlerMethodValidationException invalid -> ProblemType.INVALID_REQUEST;
			case ServletRequestBindingException missing -> ProblemType.INVALID_REQUEST;
			case TypeMismatchException mismatch when status.is4xxClientError() -> ProblemType.INVALID_REQUEST;
			default -> ProblemType.forStatus(status.value());
		};
	}

	/**
	 * Which field, and for an enum the values it takes, never the parser's own words
	 * (they name Java classes).
	 */
	static String unreadable(HttpMessageNotReadableException ex) {
		Throwable cause = ex.getMostSpecificCause();
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
			if (mismatch instanceof InvalidFormatException && type != null && isNumber(type)) {
				return field + " must be a whole number in range";
			}
			return field + " has the wrong type" + ((type != null) ? " (expected " + describe(type) + ")" : "");
		}
		if (cause instanceof DatabindException databind && !databind.getPath().isEmpty()) {
			return "field " + databind.getPath().get(databind.getPath().size() - 1).getPropertyName()
					+ " could not be read";
		}
		if (cause instanceof java.nio.charset.CharacterCodingException) {
			return "the body is not valid UTF-8";
		}
		if (cause instanceof StreamReadException) {
			return "the body is not valid JSON (or holds a duplicate key, a number out of range or trailing data)";
		}
		return "the body must be one JSON object with the documented fields";
	}

	private static boolean isNumber(Class<?> type) {
		return type == int.class || type == long.class || type == Integer.class || type == Long.class
				|| type == short.class || type == Short.class;
	}

	private static String describe(Class<?> type) {
		if (isNumber(type)) {
			return "a whole number";
		}
		if (type == double.class || type == Double.class || type == float.class || type == Float.class) {
			return "a number";
		}
		if (type == boolean.class || type == Boolean.class) {
			return "true or false";
		}
		if (type == String.class) {
			return "a string";
		}
		if (java.util.Collection.class.isAssignableFrom(type) || type.isArray()) {
			return "an array";
		}
		return "an object";
	}

	private static String lastNode(String path) {
		int dot = path.lastIndexOf('.');
		return snakeCase((dot >= 0) ? path.substring(dot + 1) : path);
	}

	private static String snakeCase(String field) {
		return field.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(java.util.Locale.ROOT);
	}

}
