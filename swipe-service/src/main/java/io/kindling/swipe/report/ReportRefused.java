package io.kindling.swipe.report;

/**
 * A report refused (bad reason, details too long, bad user id); the web edge answers 400.
 */
public final class ReportRefused extends RuntimeException {

	ReportRefused(String detail) {
		super(detail);
	}

}
