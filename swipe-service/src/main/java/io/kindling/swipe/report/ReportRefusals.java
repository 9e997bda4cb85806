package io.kindling.swipe.report;

import io.kindling.support.web.Refusal;

import org.springframework.http.HttpStatus;

/**
 * The ways a report is refused; one aimed at someone without a profile is
 * {@code unknown-target}.
 */
enum ReportRefusals implements Refusal {

	/** A bad reason, details too long, no user id, not a user id, or the caller's own. */
	BAD_REPORT("bad-report", HttpStatus.BAD_REQUEST, "Bad report");

	private final Type type;

	ReportRefusals(String slug, HttpStatus status, String title) {
		this.type = new Type(slug, status, title);
	}

	@Override
	public Type type() {
		return this.type;
	}

}
