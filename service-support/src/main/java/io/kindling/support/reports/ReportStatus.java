package io.kindling.support.reports;

import java.time.Instant;
import java.util.Objects;

import io.kindling.support.paging.Cursor;
import io.kindling.support.web.Refusal;
import org.jspecify.annotations.Nullable;

/**
 * The two lists of an operators' report queue, served by one endpoint: open reports
 * oldest first, by the time they were made, and resolved ones most recently resolved
 * first, each keyset-paged on that time and the report's id. A list's cursor carries the
 * list as its tier, so a cursor of one list is refused on the other.
 */
public enum ReportStatus {

	OPEN, RESOLVED;

	/**
	 * Where a page of this list starts: after the position the caller's cursor names, or
	 * before the list's first row for none (or an empty one, as {@link Cursor#parse}
	 * takes it).
	 */
	public Cursor after(@Nullable String cursor, Refusal badCursor) {
		if (cursor == null || cursor.isEmpty()) {
			return switch (this) {
				case OPEN -> new Cursor(Instant.EPOCH, 0);
				case RESOLVED -> Cursor.startOf(ordinal());
			};
		}
		return Cursor.parse(cursor, values().length, badCursor).requireTier(ordinal(), badCursor);
	}

	/** The cursor of the next page, after this report, the last one shown. */
	public String next(long reportId, Instant reportedAt, @Nullable Instant resolvedAt) {
		Instant at = (this == OPEN) ? reportedAt : Objects.requireNonNull(resolvedAt);
		return new Cursor(ordinal(), at, reportId).encode();
	}

}
