package io.kindling.swipe.moderation;

import io.kindling.support.web.Refusal;

import org.springframework.http.HttpStatus;

/** The ways the operators' moderation API refuses a call. */
enum ModerationRefusals implements Refusal {

	/** No report has this id. */
	NO_SUCH_REPORT("no-such-report", HttpStatus.NOT_FOUND, "No such report"),

	/** The report was resolved before. */
	REPORT_RESOLVED("report-resolved", HttpStatus.CONFLICT, "Report already resolved"),

	/** A ban's user id or expiry cannot be used. */
	BAD_BAN("bad-ban", HttpStatus.BAD_REQUEST, "Bad ban"),

	/** The user's ban is in force already. */
	ALREADY_BANNED("already-banned", HttpStatus.CONFLICT, "Already banned"),

	/** The user has no ban. */
	NO_SUCH_BAN("no-such-ban", HttpStatus.NOT_FOUND, "No such ban");

	private final Type type;

	ModerationRefusals(String slug, HttpStatus status, String title) {
		this.type = new Type(slug, status, title);
	}

	@Override
	public Type type() {
		return this.type;
	}

}
