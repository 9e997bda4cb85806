package io.kindling.infra.bench.chaos;

import java.util.ArrayList;
import java.util.List;

/** The bench's checks: each printed as it is made, the failed ones kept for the end. */
final class Checks {

	private final List<String> failures = new ArrayList<>();

	void check(boolean passed, String what, Object... args) {
		String line = what.formatted(args);
		System.out.printf("%s %s%n", passed ? "ok  " : "FAIL", line);
		if (!passed) {
			this.failures.add(line);
		}
	}

	/**
	 * A failure that is no check: a worker that stopped, a stack that would not start.
	 */
	void fail(String failure) {
		this.failures.add(failure);
	}

	boolean passed() {
		return this.failures.isEmpty();
	}

	void printFailures() {
		this.failures.forEach((failure) -> System.out.println("FAILED: " + failure));
	}

	int failed() {
		return this.failures.size();
	}

}
