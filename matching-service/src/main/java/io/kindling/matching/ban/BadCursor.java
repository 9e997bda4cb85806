package io.kindling.matching.ban;

/** A cursor that is not a {@code next_cursor} of an earlier page: 400. */
public class BadCursor extends RuntimeException {

	public BadCursor() {
		super("cursor is not a next_cursor of an earlier page");
	}

}
