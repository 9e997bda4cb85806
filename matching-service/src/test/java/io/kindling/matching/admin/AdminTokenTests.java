package io.kindling.matching.admin;

import java.util.Map;

import io.kindling.matching.MatchingProperties;
import io.kindling.support.web.ProblemType;
import io.kindling.support.web.Refused;
import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class AdminTokenTests {

	@Test
	void withNoTokenSetTheApiRefusesEveryoneEvenAnEmptyBearer() {
		AdminToken gate = new AdminToken(properties(Map.of()));
		for (String header : new String[] { null, "Bearer ", "Bearer x" }) {
			MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/admin/topics");
			if (header != null) {
				request.addHeader("Authorization", header);
			}
			assertThatExceptionOfType(Refused.class)
				.isThrownBy(() -> gate.preHandle(request, new MockHttpServletResponse(), new Object()))
				.withMessageContaining("off")
				.matches((refused) -> refused.refusal() == ProblemType.UNAUTHENTICATED);
		}
	}

	@Test
	void theRightTokenPasses() {
		AdminToken gate = new AdminToken(properties(Map.of("kindling.matching.admin-token", "s3cret")));
		MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/admin/topics");
		request.addHeader("Authorization", "bearer s3cret");
		assertThat(gate.preHandle(request, new MockHttpServletResponse(), new Object())).isTrue();
		MockHttpServletRequest wrong = new MockHttpServletRequest("GET", "/api/admin/topics");
		wrong.addHeader("Authorization", "Bearer s3cre");
		assertThatExceptionOfType(Refused.class)
			.isThrownBy(() -> gate.preHandle(wrong, new MockHttpServletResponse(), new Object()))
			.matches((refused) -> refused.refusal() == ProblemType.UNAUTHENTICATED);
	}

	private static MatchingProperties properties(Map<String, String> settings) {
		return new Binder(new MapConfigurationPropertySource(settings)).bindOrCreate("kindling.matching",
				MatchingProperties.class);
	}

}
