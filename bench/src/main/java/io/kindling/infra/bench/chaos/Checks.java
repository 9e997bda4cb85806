package io.kindling.infra.bench.chaos;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The bench's checks: each printed as it is made, the failed ones kept for the end. The
 * load's workers fail from their own threads while the bench checks on its own, so the
 * failures are kept in a concurrent queue (in the order they came).
 */
final class Checks {

	private final Queue<String> failures = new ConcurrentLinkedQueue<>();

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
