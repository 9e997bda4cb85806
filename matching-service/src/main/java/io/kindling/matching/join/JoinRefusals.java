package io.kindling.matching.join;

import io.kindling.matching.ban.BanRefusals;
import io.kindling.support.web.Refusal;
import io.kindling.support.web.Refused;

import org.springframework.http.HttpStatus;

/** The ways a join is refused, besides a rate limit and a ban. */
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

	static Refused banned() {
		return BanRefusals.BANNED.refused("this session or address may not join rooms");
	}

}
