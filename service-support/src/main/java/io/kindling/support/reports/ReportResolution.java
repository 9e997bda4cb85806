package io.kindling.support.reports;

/** How an operator resolves a report. */
public enum ReportResolution {

	/** The reported one is banned, with no end. */
	BAN,
	/** Nothing to act on. */
	DISMISS

}
