package io.kindling.swipe.block;

import io.kindling.support.web.Refusal;

import org.springframework.http.HttpStatus;

/**
 * The ways a block is refused; one aimed at someone without a profile is
 * {@code unknown-target}.
 */
public enum BlockRefusals implements Refusal {

	/** No user id, not a user id, or the caller's own. */
	BAD_BLOCK("bad-block", HttpStatus.BAD_REQUEST, "Bad block");

	private final Type type;

	BlockRefusals(String slug, HttpStatus status, String title) {
		this.type = new Type(slug, status, title);
	}

	@Override
	public Type type() {
		return this.type;
	}

}
