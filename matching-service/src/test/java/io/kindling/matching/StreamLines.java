package io.kindling.matching;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Reading an event stream's lines in a test. */
final class StreamLines {

	private StreamLines() {
	}

	/**
	 * The stream's next line that says something: blank lines end an event, and a
	 * {@code :ping} comment may come between any two events, whenever the stream has been
	 * quiet for its interval.
	 */
	static String next(BlockingQueue<String> lines, int seconds) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
		while (true) {
			String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
			assertThat(line).as("a line of the event stream within %d s", seconds).isNotNull();
			if (!line.isEmpty() && !line.equals(":ping")) {
				return line;
			}
		}
	}

}
