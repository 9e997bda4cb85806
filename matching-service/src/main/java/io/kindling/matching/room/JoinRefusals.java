package io.kindling.matching.room;

import io.kindling.support.web.Refusal;

import org.springframework.http.HttpStatus;

/**
 * The ways the claims refuse a join, besides a rate limit (before them) and a ban
 * ({@code banned}, the ban feature's).
 */
enum JoinRefusals implements Refusal {

	/** No such topic, or not active. */
	TOPIC_UNAVAILABLE("topic-unavailable", HttpStatus.BAD_REQUEST, "Topic unavailable"),

	/** Already waiting somewhere or already in a room. */
	ALREADY_JOINED("already-joined", HttpStatus.CONFLICT, "Already waiting or in a room");

	private final Type type;

	JoinRefusals(String slug, HttpStatus status, String title) {
		this.type = new Type(slug, status, title);
	}

	@Override
	public Type type() {
		return this.type;
	}

}
