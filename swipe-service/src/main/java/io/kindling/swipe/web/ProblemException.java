package io.kindling.swipe.web;

import java.util.Map;

import org.springframework.http.HttpStatus;

/**
 * A refusal the client should see as an RFC 9457 problem detail. Features subclass it
 * ({@code AlreadySwiped}, {@code BoostCooldown}…) and the service's one
 * {@code @RestControllerAdvice} renders it, with its extra response headers (for example
 * {@code Retry-After}).
 */
public class ProblemException extends RuntimeException {

	private final HttpStatus status;

	private final String title;

	private final Map<String, String> headers;

	public ProblemException(HttpStatus status, String title, String detail) {
		this(status, title, detail, Map.of());
	}

	public ProblemException(HttpStatus status, String title, String detail, Map<String, String> headers) {
		super(detail);
		this.status = status;
		this.title = title;
		this.headers = Map.copyOf(headers);
	}

	public HttpStatus status() {
		return this.status;
	}

	public String title() {
		return this.title;
	}

	public String detail() {
		return getMessage();
	}

	public Map<String, String> headers() {
		return this.headers;
	}

}
