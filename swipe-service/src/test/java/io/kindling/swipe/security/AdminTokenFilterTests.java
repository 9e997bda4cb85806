package io.kindling.swipe.security;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.security.core.context.SecurityContextHolder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The operators' gate: the right token passes as an {@link Operator} known by the token's
 * id; no token, a wrong one or any token while none is set is refused.
 */
class AdminTokenFilterTests {

	private final List<String> refusals = new ArrayList<>();

	@AfterEach
	void clear() {
		SecurityContextHolder.clearContext();
	}

	@Test
	void theRightTokenPassesAsAnOperatorKnownByTheTokensId() throws Exception {
		MockFilterChain chain = new MockFilterChain();

		filter("s3cret-token").doFilter(call("Bearer s3cret-token"), new MockHttpServletResponse(), chain);

		assertThat(chain.getRequest()).isNotNull();
		Object principal = SecurityContextHolder.getContext().getAuthentication().getPrincipal();
		// echo -n s3cret-token | sha256sum: the first 16 hex digits
		assertThat(principal).isEqualTo(new Operator("a81e611a041b13f0"));
		assertThat(this.refusals).isEmpty();
	}

	@Test
	void aWrongOrMissingTokenIsRefused() throws Exception {
		for (String header : new String[] { null, "Bearer s3cret-tokem", "Basic s3cret-token", "s3cret-token" }) {
			MockFilterChain chain = new MockFilterChain();
			filter("s3cret-token").doFilter(call(header), new MockHttpServletResponse(), chain);
			assertThat(chain.getRequest()).as(header).isNull();
		}
		assertThat(this.refusals).hasSize(4);
	}

	@Test
	void withNoTokenSetTheApiIsOffForEveryone() throws Exception {
		MockFilterChain chain = new MockFilterChain();

		filter("").doFilter(call("Bearer "), new MockHttpServletResponse(), chain);

		assertThat(chain.getRequest()).isNull();
		assertThat(this.refusals).singleElement().asString().contains("off");
	}

	private AdminTokenFilter filter(String token) {
		return new AdminTokenFilter(token, (request, response, failure) -> this.refusals.add(failure.getMessage()));
	}

	private static MockHttpServletRequest call(@Nullable String authorization) {
		MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/admin/reports");
		if (authorization != null) {
			request.addHeader("Authorization", authorization);
		}
		return request;
	}

}
