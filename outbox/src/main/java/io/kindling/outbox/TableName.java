package io.kindling.outbox;

import java.util.regex.Pattern;

/**
 * What an outbox table may be called: it is written into SQL text, and its migration
 * history is {@code flyway_
 *
<table>
 * _history}, which must fit MySQL's 64 characters.
 */
final class TableName {

	static final String PATTERN = "[a-z][a-z0-9_]{0,48}";

	private static final Pattern COMPILED = Pattern.compile(PATTERN);

	private TableName() {
	}

	static String require(String table) {
		if (!COMPILED.matcher(table).matches()) {
			throw new IllegalArgumentException("not an outbox table name: " + table + " (wants " + PATTERN + ")");
		}
		return table;
	}

}
