package io.kindling.infra.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the tables of problem types in {@code docs/errors.md}: one table under each
 * heading that names whose types follow ({@code ### matching-service}), each row
 * {@code | `slug` | status | title | sent when |}. Each service's tests compare its table
 * with the refusals its code declares.
 */
public final class ErrorsReference {

	private static final Pattern ROW = Pattern.compile("^\\| `([a-z0-9-]+)` \\| (\\d{3}) \\| ([^|]+) \\|");

	private static final Pattern HEADING = Pattern.compile("^#{2,3} (.+)$");

	private ErrorsReference() {
	}

	/** The project's {@code docs/errors.md}. */
	public static Path errorsDoc() {
		String root = System.getProperty("kindling.root");
		return Path.of((root != null) ? root : ".").resolve("docs/errors.md");
	}

	/**
	 * Every table, by the heading above it: slug to {@code "status title"}. Fails on a
	 * slug documented twice in one table, or documented in two tables with another status
	 * or title (the same failure has the same type in every service).
	 */
	public static Map<String, Map<String, String>> tables(Path document) {
		Map<String, Map<String, String>> tables = new LinkedHashMap<>();
		Map<String, String> everywhere = new TreeMap<>();
		List<String> problems = new ArrayList<>();
		String owner = null;
		for (String line : read(document)) {
			Matcher heading = HEADING.matcher(line.strip());
			if (heading.matches()) {
				owner = heading.group(1).strip();
				continue;
			}
			Matcher row = ROW.matcher(line);
			if (!row.find()) {
				continue;
			}
			if (owner == null) {
				problems.add(row.group(1) + " is in a table under no heading");
				continue;
			}
			String described = row.group(2) + " " + row.group(3).strip();
			if (tables.computeIfAbsent(owner, (name) -> new TreeMap<>()).put(row.group(1), described) != null) {
				problems.add(row.group(1) + " is documented twice under " + owner);
			}
			String elsewhere = everywhere.putIfAbsent(row.group(1), described);
			if (elsewhere != null && !elsewhere.equals(described)) {
				problems.add(row.group(1) + " is documented as " + elsewhere + " and as " + described);
			}
		}
		if (!problems.isEmpty()) {
			throw new AssertionError(document + ": " + String.join("; ", problems));
		}
		return tables;
	}

	/** The table under the heading {@code owner}. */
	public static Map<String, String> table(Path document, String owner) {
		Map<String, String> table = tables(document).get(owner);
		if (table == null) {
			throw new AssertionError(document + " has no table of problem types under a heading '" + owner + "'");
		}
		return table;
	}

	private static List<String> read(Path document) {
		try {
			return Files.readAllLines(document);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
