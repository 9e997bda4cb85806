package io.kindling.matching.report;

/** A report resolved before: 409. */
public class ReportResolved extends RuntimeException {

	ReportResolved(long reportId, String resolution) {
		super("Report " + reportId + " was resolved already (" + resolution + ").");
	}

}
