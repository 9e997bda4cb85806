package io.kindling.swipe.match;

import io.kindling.support.web.Refusal;

import org.springframework.http.HttpStatus;

/** The ways a match call is refused. */
public enum MatchRefusals implements Refusal {

	NO_SUCH_MATCH("no-such-match", HttpStatus.NOT_FOUND, "No such match");

	private final Type type;

	MatchRefusals(String slug, HttpStatus status, String title) {
		this.type = new Type(slug, status, title);
	}

	@Override
	public Type type() {
		return this.type;
	}

}
