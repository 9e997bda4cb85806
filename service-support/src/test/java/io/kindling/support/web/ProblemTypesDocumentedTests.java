package io.kindling.support.web;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** docs/errors.md lists exactly the problem types the code sends, with their statuses. */
class ProblemTypesDocumentedTests {

	private static final Pattern ROW = Pattern.compile("^\\| `([a-z0-9-]+)` \\| (\\d{3}) \\| ([^|]+) \\|");

	@Test
	void theDocumentedTypesAreTheTypesInTheCode() throws IOException {
		Path root = Path.of(System.getProperty("kindling.root", ".."));
		Map<String, String> documented = new TreeMap<>();
		for (String line : Files.readAllLines(root.resolve("docs/errors.md"))) {
			Matcher row = ROW.matcher(line);
			if (row.find()) {
				assertThat(documented.put(row.group(1), row.group(2) + " " + row.group(3).strip()))
					.as("documented twice: " + row.group(1))
					.isNull();
			}
		}

		Map<String, String> inCode = Arrays.stream(ProblemType.values())
			.collect(Collectors.toMap(ProblemType::slug, (type) -> type.status().value() + " " + type.title(),
					(a, b) -> a, TreeMap::new));

		assertThat(documented).isEqualTo(inCode);
	}

}
