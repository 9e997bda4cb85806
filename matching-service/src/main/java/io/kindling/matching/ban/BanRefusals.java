package io.kindling.matching.ban;

import io.kindling.support.web.Refusal;
import io.kindling.support.web.Refused;

import org.springframework.http.HttpStatus;

/** The refusal of someone banned, and the ways the operators' ban API refuses a call. */
public enum BanRefusals implements Refusal {

	/**
	 * The session, the address, or a network the address lies in is on the ban list.
	 */
	BANNED("banned", HttpStatus.FORBIDDEN, "Banned"),

	BAD_BAN("bad-ban", HttpStatus.BAD_REQUEST, "Bad ban"),

	ALREADY_BANNED("already-banned", HttpStatus.CONFLICT, "Already banned"),

	NO_SUCH_BAN("no-such-ban", HttpStatus.NOT_FOUND, "No such ban"),

	BAD_CURSOR("bad-cursor", HttpStatus.BAD_REQUEST, "Bad cursor");

	private final Type type;

	BanRefusals(String slug, HttpStatus status, String title) {
		this.type = new Type(slug, status, title);
	}

	@Override
	public Type type() {
		return this.type;
	}

	static Refused badCursor() {
		return BAD_CURSOR.refused("cursor is not a next_cursor of an earlier page");
	}

}
