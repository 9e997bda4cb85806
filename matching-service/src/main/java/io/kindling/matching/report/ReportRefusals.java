package io.kindling.matching.report;

import io.kindling.support.web.Refusal;

import org.springframework.http.HttpStatus;

/** The ways a report, and a moderator's resolution of one, are refused. */
enum ReportRefusals implements Refusal {

	/** The reporter never sat in a room: there is nobody to report. */
	NO_ROOM("no-room", HttpStatus.NOT_FOUND, "No room"),

	/** The moderators' queue: no room report has this id. */
	NO_SUCH_REPORT("no-such-report", HttpStatus.NOT_FOUND, "No such report"),

	/** The moderators' queue: the report was resolved before. */
	REPORT_RESOLVED("report-resolved", HttpStatus.CONFLICT, "Report already resolved");

	private final Type type;

	ReportRefusals(String slug, HttpStatus status, String title) {
		this.type = new Type(slug, status, title);
	}

	@Override
	public Type type() {
		return this.type;
	}

}
