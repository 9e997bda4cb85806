package io.kindling.support.web;

import java.io.IOException;

import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/** Builds the one error shape: RFC 9457 problem details typed by {@link ProblemType}. */
public final class Problems {

	private Problems() {
	}

	public static ProblemDetail of(ProblemType type, @Nullable String detail) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(type.status(), detail);
		problem.setType(type.uri());
		problem.setTitle(type.title());
		return problem;
	}

	/** The whole answer, for an {@code @ExceptionHandler}. */
	public static ResponseEntity<ProblemDetail> answer(ProblemType type, @Nullable String detail) {
		return answer(type, detail, HttpHeaders.EMPTY);
	}

	/**
	 * The whole answer with extra headers ({@code Retry-After},
	 * {@code WWW-Authenticate}).
	 */
	public static ResponseEntity<ProblemDetail> answer(ProblemType type, @Nullable String detail, HttpHeaders headers) {
		return ResponseEntity.status(type.status())
			.headers(headers)
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.body(of(type, detail));
	}

	/** 401 with the RFC 6750 challenge. */
	public static ResponseEntity<ProblemDetail> unauthenticated(@Nullable String detail) {
		HttpHeaders headers = new HttpHeaders();
		headers.set(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
		return answer(ProblemType.UNAUTHENTICATED, detail, headers);
	}

	/** {@code Retry-After} in whole seconds, at least one. */
	public static HttpHeaders retryAfter(long seconds) {
		HttpHeaders headers = new HttpHeaders();
		headers.set(HttpHeaders.RETRY_AFTER, String.valueOf(Math.max(1, seconds)));
		return headers;
	}

	/** Writes the problem as the whole response, for filters that answer on their own. */
	public static void write(HttpServletResponse response, JsonMapper json, ProblemDetail problem) throws IOException {
		response.setStatus(problem.getStatus());
		response.setCharacterEncoding("UTF-8");
		response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
		response.getWriter().write(json.writeValueAsString(problem));
	}

}
