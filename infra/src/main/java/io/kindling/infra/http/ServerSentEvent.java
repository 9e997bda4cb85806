package io.kindling.infra.http;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * One server-sent event, read from the lines of an event stream as a browser's
 * {@code EventSource} reads it: fields in any order, comments skipped, a blank line ends
 * the event.
 *
 * @param id its {@code id}, or null without one
 * @param name its {@code event} ({@code message} without one)
 * @param data its {@code data} lines, joined by newlines
 */
public record ServerSentEvent(@Nullable String id, String name, String data) {

	/**
	 * The next whole event among the lines, or null if none is complete within the
	 * timeout.
	 */
	public static @Nullable ServerSentEvent next(BlockingQueue<String> lines, Duration timeout)
			throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		String id = null;
		String name = "message";
		StringBuilder data = null;
		boolean started = false;
		while (true) {
			String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
			if (line == null) {
				return null;
			}
			if (line.isEmpty()) {
				if (started) {
					return new ServerSentEvent(id, name, (data != null) ? data.toString() : "");
				}
				continue;
			}
			if (line.startsWith(":")) {
				continue;
			}
			started = true;
			int colon = line.indexOf(':');
			String field = (colon < 0) ? line : line.substring(0, colon);
			String value = (colon < 0) ? "" : line.substring(colon + 1);
			if (value.startsWith(" ")) {
				value = value.substring(1);
			}
			switch (field) {
				case "id" -> id = value;
				case "event" -> name = value;
				case "data" -> data = (data == null) ? new StringBuilder(value) : data.append('\n').append(value);
				default -> {
					// retry and unknown fields carry nothing a test reads
				}
			}
		}
	}

}
