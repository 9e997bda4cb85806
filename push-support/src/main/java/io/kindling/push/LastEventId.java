package io.kindling.push;

import org.jspecify.annotations.Nullable;

/**
 * Where a reconnecting client says what it got last: the {@code Last-Event-ID} header
 * (what a browser's own reconnect sends), or {@code last_event_id=} in the URL, beside a
 * new ticket, since that reconnect reuses the spent ticket and a page has to open a new
 * stream itself.
 */
public final class LastEventId {

	/** The header a browser's {@code EventSource} sends when it reconnects. */
	public static final String HEADER = "Last-Event-ID";

	/** The query parameter a page sends beside a new ticket. */
	public static final String PARAMETER = "last_event_id";

	private LastEventId() {
	}

	/**
	 * The id the client got last, or null for a new client; the header wins, as the one
	 * the protocol defines. An empty value is a client that got nothing yet.
	 */
	public static @Nullable String of(@Nullable String header, @Nullable String parameter) {
		String id = (header != null) ? header : parameter;
		return (id == null || id.isBlank()) ? null : id.strip();
	}

}
