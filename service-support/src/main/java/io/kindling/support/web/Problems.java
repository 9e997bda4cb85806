package io.kindling.support.web;

import java.io.IOException;

import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/**
 * Builds the one error shape: RFC 9457 problem details typed by a {@link Refusal} (the
 * web edge's {@link ProblemType}s or a service's own).
 */
public final class Problems {

	private Problems() {
	}

	public static ProblemDetail of(Refusal type, @Nullable String detail) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(type.status(), detail);
		problem.setType(type.uri());
		problem.setTitle(type.title());
		return problem;
	}

	/** The whole answer, for an {@code @ExceptionHandler}. */
	public static ResponseEntity<ProblemDetail> answer(Refusal type, @Nullable String detail) {
		return answer(type, detail, HttpHeaders.EMPTY);
	}

	/**
	 * The whole answer with extra headers ({@code Retry-After},
	 * {@code WWW-Authenticate}).
	 */
	public static ResponseEntity<ProblemDetail> answer(Refusal type, @Nullable String detail, HttpHeaders headers) {
		return ResponseEntity.status(type.status())
			.headers(headers)
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.body(of(type, detail));
	}

	/**
	 * The answer to a refusal: its problem detail, with {@code Retry-After} when it says
	 * when to retry, and a 401 with the RFC 6750 challenge.
	 */
	public static ResponseEntity<ProblemDetail> answer(Refused refused) {
		return answer(refused.refusal(), refused.getMessage(), headers(refused));
	}

	private static HttpHeaders headers(Refused refused) {
		HttpHeaders headers = new HttpHeaders();
		refused.retryAfter()
			.ifPresent((wait) -> headers.addAll(retryAfter(wait.toSeconds() + ((wait.toNanosPart() > 0) ? 1 : 0))));
		if (refused.refusal().status() == HttpStatus.UNAUTHORIZED) {
			headers.set(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
		}
		return headers;
	}

	/** {@code Retry-After} in whole seconds, at least one. */
	public static HttpHeaders retryAfter(long seconds) {
		HttpHeaders headers = new HttpHeaders();
		headers.set(HttpHeaders.RETRY_AFTER, String.valueOf(Math.max(1, seconds)));
		return headers;
	}

	/** Writes a refusal as the whole response, its headers too, for filters. */
	public static void write(HttpServletResponse response, JsonMapper json, Refused refused) throws IOException {
		headers(refused).forEach((name, values) -> values.forEach((value) -> response.addHeader(name, value)));
		write(response, json, of(refused.refusal(), refused.getMessage()));
	}

	/** Writes the problem as the whole response, for filters that answer on their own. */
	public static void write(HttpServletResponse response, JsonMapper json, ProblemDetail problem) throws IOException {
		response.setStatus(problem.getStatus());
		response.setCharacterEncoding("UTF-8");
		response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
		response.getWriter().write(json.writeValueAsString(problem));
	}

}
