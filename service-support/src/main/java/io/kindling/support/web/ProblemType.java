package io.kindling.support.web;

import java.net.URI;

import org.springframework.http.HttpStatus;

/**
 * Every problem type a Kindling service answers with, one status each: the same failure
 * has the same type in every service. docs/errors.md lists them, and a test keeps that
 * list and this one equal.
 */
public enum ProblemType {

	// Any service: what the container, Spring MVC, Spring Security and Jackson refuse.

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

	/** Redis or the database did not answer: retry after {@code Retry-After}. */
	UNAVAILABLE("unavailable", HttpStatus.SERVICE_UNAVAILABLE, "Temporarily unavailable"),

	// matching-service

	RATE_LIMITED("rate-limited", HttpStatus.TOO_MANY_REQUESTS, "Too many requests"),

	BANNED("banned", HttpStatus.FORBIDDEN, "Banned"),

	TOPIC_UNAVAILABLE("topic-unavailable", HttpStatus.BAD_REQUEST, "Topic unavailable"),

	ALREADY_JOINED("already-joined", HttpStatus.CONFLICT, "Already waiting or in a room"),

	NO_ROOM("no-room", HttpStatus.NOT_FOUND, "No room"),

	NO_SUCH_TOPIC("no-such-topic", HttpStatus.NOT_FOUND, "No such topic"),

	TOPIC_NAME_TAKEN("topic-name-taken", HttpStatus.CONFLICT, "Topic name taken"),

	BAD_BAN("bad-ban", HttpStatus.BAD_REQUEST, "Bad ban"),

	ALREADY_BANNED("already-banned", HttpStatus.CONFLICT, "Already banned"),

	NO_SUCH_BAN("no-such-ban", HttpStatus.NOT_FOUND, "No such ban"),

	/** A room's socket asked for by a session that is not one of the room's people. */
	NOT_IN_ROOM("not-in-room", HttpStatus.FORBIDDEN, "Not in this room"),

	NO_SUCH_ROOM("no-such-room", HttpStatus.NOT_FOUND, "No such room"),

	/** A room's socket asked for after the room ended, or after the session left it. */
	ROOM_ENDED("room-ended", HttpStatus.GONE, "Room ended"),

	// swipe-service

	BAD_IDEMPOTENCY_KEY("bad-idempotency-key", HttpStatus.BAD_REQUEST, "Bad Idempotency-Key"),

	BAD_SWIPE("bad-swipe", HttpStatus.BAD_REQUEST, "Bad swipe"),

	SELF_SWIPE("self-swipe", HttpStatus.BAD_REQUEST, "Self swipe"),

	UNKNOWN_TARGET("unknown-target", HttpStatus.UNPROCESSABLE_CONTENT, "Unknown target"),

	ALREADY_SWIPED("already-swiped", HttpStatus.CONFLICT, "Already swiped"),

	IDEMPOTENCY_KEY_REUSED("idempotency-key-reused", HttpStatus.CONFLICT, "Idempotency-Key reused"),

	DAILY_LIMIT_REACHED("daily-limit-reached", HttpStatus.TOO_MANY_REQUESTS, "Daily limit reached"),

	NOTHING_TO_REWIND("nothing-to-rewind", HttpStatus.NOT_FOUND, "Nothing to rewind"),

	SWIPE_MADE_A_MATCH("swipe-made-a-match", HttpStatus.CONFLICT, "Swipe made a match"),

	TOO_YOUNG("too-young", HttpStatus.UNPROCESSABLE_CONTENT, "Too young"),

	BAD_AGE_RANGE("bad-age-range", HttpStatus.BAD_REQUEST, "Bad age range"),

	NO_SUCH_PROFILE("no-such-profile", HttpStatus.NOT_FOUND, "No such profile"),

	NO_PROFILE("no-profile", HttpStatus.NOT_FOUND, "No profile"),

	TOO_MANY_LOCATION_CHANGES("too-many-location-changes", HttpStatus.TOO_MANY_REQUESTS, "Too many location changes"),

	NO_SUCH_MATCH("no-such-match", HttpStatus.NOT_FOUND, "No such match"),

	BAD_CURSOR("bad-cursor", HttpStatus.BAD_REQUEST, "Bad cursor"),

	BOOST_ACTIVE("boost-active", HttpStatus.CONFLICT, "Boost active"),

	BOOST_COOLDOWN("boost-cooldown", HttpStatus.TOO_MANY_REQUESTS, "Boost cooldown"),

	NO_ACTIVE_BOOST("no-active-boost", HttpStatus.NOT_FOUND, "No active boost"),

	BAD_BLOCK("bad-block", HttpStatus.BAD_REQUEST, "Bad block"),

	BAD_REPORT("bad-report", HttpStatus.BAD_REQUEST, "Bad report"),

	// conversations (a match's messages; a room's socket sends the same in its error
	// frames)

	/**
	 * A message's text breaks the rule of {@code io.kindling.support.text.MessageText}.
	 */
	BAD_MESSAGE("bad-message", HttpStatus.BAD_REQUEST, "Bad message"),

	/** The same {@code client_message_id} again with another text. */
	CLIENT_MESSAGE_ID_REUSED("client-message-id-reused", HttpStatus.CONFLICT, "client_message_id reused"),

	NO_SUCH_MESSAGE("no-such-message", HttpStatus.NOT_FOUND, "No such message"),

	// outbox-relay

	PARKED_ROW_NOT_FOUND("parked-row-not-found", HttpStatus.NOT_FOUND, "Parked row not found");

	/** Every type is this plus its slug. */
	public static final String BASE = "https://kindling.io/problems/";

	private final String slug;

	private final HttpStatus status;

	private final String title;

	private final URI uri;

	ProblemType(String slug, HttpStatus status, String title) {
		this.slug = slug;
		this.status = status;
		this.title = title;
		this.uri = URI.create(BASE + slug);
	}

	public String slug() {
		return this.slug;
	}

	public HttpStatus status() {
		return this.status;
	}

	public String title() {
		return this.title;
	}

	public URI uri() {
		return this.uri;
	}

	/** Every type's URI, as a caller sees it in {@code type}. */
	public static java.util.Set<String> uris() {
		return java.util.Arrays.stream(values())
			.map((type) -> type.uri().toString())
			.collect(java.util.stream.Collectors.toUnmodifiableSet());
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
