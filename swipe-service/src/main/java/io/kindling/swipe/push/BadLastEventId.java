package io.kindling.swipe.push;

/** A {@code Last-Event-ID} (or {@code last_event_id}) that no stream sent. */
public final class BadLastEventId extends RuntimeException {

	BadLastEventId() {
		super("Last-Event-ID (or last_event_id) must be the id of an event this stream sent, such as 1767225600000-0.");
	}

}
