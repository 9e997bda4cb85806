package io.kindling.matching.report;

import io.kindling.support.web.Refusal;

import org.springframework.http.HttpStatus;

/** The ways a report is refused. */
enum ReportRefusals implements Refusal {

	/** The reporter never sat in a room: there is nobody to report. */
	NO_ROOM("no-room", HttpStatus.NOT_FOUND, "No room");

	private final Type type;

	ReportRefusals(String slug, HttpStatus status, String title) {
		this.type = new Type(slug, status, title);
	}

	@Override
	public Type type() {
		return this.type;
	}

}
