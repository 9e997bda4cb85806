package io.kindling.infra.servers;

import java.util.List;

/** JVM options for the Java processes the tests and benches start. */
public final class JvmOptions {

	/**
	 * For a JVM that lives for one test class or run (a service jar, a Kafka node) or a
	 * second or two (Kafka's storage tool): compiled with C1 alone, it starts on much
	 * less CPU, which counts where several start at once on two cores (two services took
	 * 40-50 s each). Not for one whose speed is measured.
	 */
	public static final List<String> QUICK_START = List.of("-XX:TieredStopAtLevel=1");

	private JvmOptions() {
	}

}
