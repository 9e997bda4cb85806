package io.kindling.swipe;

import java.util.List;

import io.kindling.infra.test.ErrorsReference;
import io.kindling.support.web.Refusals;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/errors.md lists exactly the refusals swipe-service declares, with their statuses
 * and titles.
 */
class RefusalsDocumentedTests {

	@Test
	void theDocumentedRefusalsAreTheDeclaredOnes() {
		assertThat(ErrorsReference.table(ErrorsReference.errorsDoc(), "swipe-service"))
			.isEqualTo(Refusals.declaredIn(List.of("io.kindling.swipe")).ownAsDocumented());
	}

}
