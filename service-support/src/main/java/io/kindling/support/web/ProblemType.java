package io.kindling.support.web;

import org.springframework.http.HttpStatus;

/**
 * The problem types of the web edge itself, which every service answers with: what the
 * container, Spring MVC, Spring Security and Jackson refuse, and the failures that are
 * nobody's refusal. A service's own refusals are declared in its own code, each a
 * {@link Refusal}. docs/errors.md lists both, and tests keep those lists and the code
 * equal.
 */
public enum ProblemType implements Refusal {

	/** The container refused the request line, the URL or a header. */
	BAD_REQUEST("bad-request", HttpStatus.BAD_REQUEST, "Bad request"),

	/** Parameters, headers or fields that do not pass validation. */
	INVALID_REQUEST("invalid-request", HttpStatus.BAD_REQUEST, "Invalid request"),

	/** A body that is not the JSON the endpoint takes. */
	UNREADABLE_REQUEST_BODY("unreadable-request-body", HttpStatus.BAD_REQUEST, "Unreadable request body"),

	UNAUTHENTICATED("unauthenticated", HttpStatus.UNAUTHORIZED, "Unauthenticated"),

	NOT_FOUND("not-found", HttpStatus.NOT_FOUND, "Not found"),

	METHOD_NOT_ALLOWED("method-not-allowed", HttpStatus.METHOD_NOT_ALLOWED, "Method not allowed"),

	/**
	 * A browser's cross-origin request from an origin not in
	 * {@code kindling.web.allowed-origins}.
	 */
	ORIGIN_NOT_ALLOWED("origin-not-allowed", HttpStatus.FORBIDDEN, "Origin not allowed"),

	NOT_ACCEPTABLE("not-acceptable", HttpStatus.NOT_ACCEPTABLE, "Not acceptable"),

	CONTENT_TOO_LARGE("content-too-large", HttpStatus.CONTENT_TOO_LARGE, "Content too large"),

	UNSUPPORTED_MEDIA_TYPE("unsupported-media-type", HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Unsupported media type"),

	/** A fault of ours, never of the caller's input. */
	INTERNAL_ERROR("internal-error", HttpStatus.INTERNAL_SERVER_ERROR, "Internal error"),

	/**
	 * Too many requests of one kind from one client in a window (stream tickets per
	 * principal; matching-service's joins and sessions per address, a room's messages per
	 * session; swipe-service's match messages per user): retry after {@code Retry-After}.
	 */
	RATE_LIMITED("rate-limited", HttpStatus.TOO_MANY_REQUESTS, "Too many requests"),

	/**
	 * The session or user already holds {@code kindling.web.max-streams-per-principal}
	 * open event streams, counted across instances.
	 */
	TOO_MANY_STREAMS("too-many-streams", HttpStatus.TOO_MANY_REQUESTS, "Too many event streams"),

	/** Redis or the database did not answer: retry after {@code Retry-After}. */
	UNAVAILABLE("unavailable", HttpStatus.SERVICE_UNAVAILABLE, "Temporarily unavailable"),

	/**
	 * The instance is working on as many requests as {@code kindling.web.overload.*} lets
	 * it, or a feature's own bound on what waits is full: refused before anything was
	 * done, retry after {@code Retry-After}. Thrown without a wait, it is answered with
	 * {@code kindling.web.overload.retry-after}, the limit's own.
	 */
	OVERLOADED("overloaded", HttpStatus.SERVICE_UNAVAILABLE, "Overloaded");

	private final Type type;

	ProblemType(String slug, HttpStatus status, String title) {
		this.type = new Type(slug, status, title);
	}

	@Override
	public Type type() {
		return this.type;
	}

	/**
	 * The generic type of a status that something below the services' own code chose (the
	 * container, a framework): 400 for a 4xx without one of its own, 500 for a 5xx.
	 */
	public static ProblemType forStatus(int status) {
		return switch (status) {
			case 401 -> UNAUTHENTICATED;
			case 404 -> NOT_FOUND;
			case 405 -> METHOD_NOT_ALLOWED;
			case 406 -> NOT_ACCEPTABLE;
			case 413 -> CONTENT_TOO_LARGE;
			case 415 -> UNSUPPORTED_MEDIA_TYPE;
			case 503 -> UNAVAILABLE;
			default -> (status >= 500) ? INTERNAL_ERROR : BAD_REQUEST;
		};
	}

}
