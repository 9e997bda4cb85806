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
	 * timeout (the lines of one it began to read are then lost).
	 */
	public static @Nullable ServerSentEvent next(BlockingQueue<String> lines, Duration timeout)
			throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		Parser parser = new Parser();
		while (true) {
			String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
			if (line == null) {
				return null;
			}
			ServerSentEvent event = parser.accept(line);
			if (event != null) {
				return event;
			}
		}
	}

	/** Reads a stream line by line, for a consumer of its lines as they arrive. */
	public static final class Parser {

		private @Nullable String id;

		private String name = "message";

		private @Nullable StringBuilder data;

		private boolean started;

		/** Takes the next line; returns the event it ends, or null. */
		public @Nullable ServerSentEvent accept(String line) {
			if (line.isEmpty()) {
				if (!this.started) {
					return null;
				}
				ServerSentEvent event = new ServerSentEvent(this.id, this.name,
						(this.data != null) ? this.data.toString() : "");
				this.id = null;
				this.name = "message";
				this.data = null;
				this.started = false;
				return event;
			}
			if (line.startsWith(":")) {
				return null;
			}
			this.started = true;
			int colon = line.indexOf(':');
			String field = (colon < 0) ? line : line.substring(0, colon);
			String value = (colon < 0) ? "" : line.substring(colon + 1);
			if (value.startsWith(" ")) {
				value = value.substring(1);
			}
			switch (field) {
				case "id" -> this.id = value;
				case "event" -> this.name = value;
				case "data" ->
					this.data = (this.data == null) ? new StringBuilder(value) : this.data.append('\n').append(value);
				default -> {
					// retry and unknown fields carry nothing a client here reads
				}
			}
			return null;
		}

	}

}
