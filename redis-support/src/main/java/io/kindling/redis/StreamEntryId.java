package io.kindling.redis;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The id Redis gives an entry of a stream ({@code XADD … *}): {@code <ms>-<seq>}. Ids
 * only grow within a stream, whichever client appended, so they order its entries.
 */
public record StreamEntryId(long millis, long sequence) implements Comparable<StreamEntryId> {

	/**
	 * Before every entry: an empty or missing stream, or a reader that has read nothing.
	 */
	public static final StreamEntryId NONE = new StreamEntryId(0, 0);

	private static final Pattern FORM = Pattern.compile("(\\d{1,18})-(\\d{1,18})");

	/** An id Redis wrote. */
	public static StreamEntryId of(String id) {
		return parse(id).orElseThrow(() -> new IllegalStateException("not a stream entry id: " + id));
	}

	/**
	 * An id a client sent back, which it can only have had from Redis; empty if it is
	 * none.
	 */
	public static Optional<StreamEntryId> parse(String id) {
		Matcher parts = FORM.matcher(id);
		if (!parts.matches()) {
			return Optional.empty();
		}
		return Optional.of(new StreamEntryId(Long.parseLong(parts.group(1)), Long.parseLong(parts.group(2))));
	}

	@Override
	public int compareTo(StreamEntryId other) {
		int byMillis = Long.compare(this.millis, other.millis);
		return (byMillis != 0) ? byMillis : Long.compare(this.sequence, other.sequence);
	}

	@Override
	public String toString() {
		return this.millis + "-" + this.sequence;
	}

}
