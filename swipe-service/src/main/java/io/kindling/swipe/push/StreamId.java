package io.kindling.swipe.push;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kindling.support.web.ProblemType;

/**
 * An event's id: the id Redis gave its entry in the user's log, {@code <ms>-<seq>}. Ids
 * only grow within a log, whichever instance appended.
 */
record StreamId(long millis, long sequence) implements Comparable<StreamId> {

	/** Before every event: a log that is empty or gone. */
	static final StreamId NONE = new StreamId(0, 0);

	private static final Pattern FORM = Pattern.compile("(\\d{1,18})-(\\d{1,18})");

	/** The id of an entry Redis wrote. */
	static StreamId of(String id) {
		Matcher parts = FORM.matcher(id);
		if (!parts.matches()) {
			throw new IllegalStateException("not a stream entry id: " + id);
		}
		return new StreamId(Long.parseLong(parts.group(1)), Long.parseLong(parts.group(2)));
	}

	/** An id a client sent back, which it can only have got from a stream. */
	static StreamId fromClient(String lastEventId) {
		if (!FORM.matcher(lastEventId).matches()) {
			throw ProblemType.INVALID_REQUEST.refused(
					"Last-Event-ID (or last_event_id) must be the id of an event this stream sent, such as 1767225600000-0.");
		}
		return of(lastEventId);
	}

	@Override
	public int compareTo(StreamId other) {
		int byMillis = Long.compare(this.millis, other.millis);
		return (byMillis != 0) ? byMillis : Long.compare(this.sequence, other.sequence);
	}

	@Override
	public String toString() {
		return this.millis + "-" + this.sequence;
	}

}
