package io.kindling.support.web;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import io.kindling.infra.test.ErrorsReference;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/errors.md lists exactly the web edge's problem types under "Every service", with
 * their statuses and titles; each service's tests hold its own table to its declarations.
 */
class ProblemTypesDocumentedTests {

	@Test
	void theDocumentedTypesOfEveryServiceAreTheWebEdgesTypes() {
		Map<String, String> inCode = Arrays.stream(ProblemType.values())
			.collect(Collectors.toMap(ProblemType::slug, (type) -> type.status().value() + " " + type.title(),
					(a, b) -> a, TreeMap::new));

		assertThat(ErrorsReference.table(ErrorsReference.errorsDoc(), "Every service")).isEqualTo(inCode);
	}

}
