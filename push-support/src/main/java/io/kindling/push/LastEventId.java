package io.kindling.push;

import org.jspecify.annotations.Nullable;

/**
 * What a reconnecting client got last, as a handler parameter of an event-stream
 * endpoint: the {@code Last-Event-ID} header (what a browser's own reconnect sends), or
 * {@code last_event_id=} in the URL, beside a new ticket, since that reconnect reuses the
 * spent ticket and a page has to open a new stream itself. The header wins, as the one
 * the protocol defines.
 *
 * @param value the id, or null for a client that got nothing yet
 */
public record LastEventId(@Nullable String value) {

	/** The header a browser's {@code EventSource} sends when it reconnects. */
	public static final String HEADER = "Last-Event-ID";

	/** The query parameter a page sends beside a new ticket. */
	public static final String PARAMETER = "last_event_id";

	static LastEventId of(@Nullable String header, @Nullable String parameter) {
		String id = (header != null) ? header : parameter;
		return new LastEventId((id == null || id.isBlank()) ? null : id.strip());
	}

}
