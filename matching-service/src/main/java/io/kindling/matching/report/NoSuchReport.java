package io.kindling.matching.report;

/** No room report has this id: 404. */
public class NoSuchReport extends RuntimeException {

	NoSuchReport(long reportId) {
		super("No report has the id " + reportId + ".");
	}

}
