package io.kindling.swipe.security;

import java.util.List;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.server.resource.web.DefaultBearerTokenResolver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class HeaderBearerTokensTests {

	private static final String JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.c2lnbmF0dXJl-_~+/==";

	@Test
	void readsTheTokenOfTheBearerSchemeInAnyCase() {
		assertThat(HeaderBearerTokens.token("Bearer " + JWT)).isEqualTo(JWT);
		assertThat(HeaderBearerTokens.token("bearer " + JWT)).isEqualTo(JWT);
		assertThat(HeaderBearerTokens.token("BEARER abc")).isEqualTo("abc");
	}

	@Test
	void noHeaderOrAnotherSchemeCarriesNoToken() {
		assertThat(HeaderBearerTokens.token(null)).isNull();
		assertThat(HeaderBearerTokens.token("")).isNull();
		assertThat(HeaderBearerTokens.token("Basic dXNlcjpwYXNz")).isNull();
		assertThat(HeaderBearerTokens.token("Bear abc")).isNull();
	}

	@Test
	void aMalformedBearerTokenIsRefused() {
		for (String header : List.of("Bearer", "Bearer ", "Bearerabc", "Bearer  abc", "Bearer abc def", "Bearer ab=c",
				"Bearer =", "Bearer abc\t", "Bearer ab\u00e9", "Bearer abc ")) {
			assertThatExceptionOfType(OAuth2AuthenticationException.class).as(header)
				.isThrownBy(() -> HeaderBearerTokens.token(header))
				.satisfies((ex) -> assertThat(ex.getError().getErrorCode()).isEqualTo("invalid_token"));
		}
	}

	@Test
	void answersAsSpringSecuritysOwnResolver() {
		DefaultBearerTokenResolver spring = new DefaultBearerTokenResolver();
		HeaderBearerTokens ours = new HeaderBearerTokens();
		for (String header : List.of("Bearer " + JWT, "bearer x", "Basic abc", "Bearer", "Bearer  abc", "Bearer a=b",
				"Bearer abc==", "Bearer abc=", "BeArEr a.b.c", "Bearerx abc", "Token abc", "Bearer a%b")) {
			MockHttpServletRequest request = new MockHttpServletRequest();
			request.addHeader("Authorization", header);
			Object expected = answer(() -> spring.resolve(request));
			assertThat(answer(() -> ours.resolve(request))).as(header).isEqualTo(expected);
		}
		assertThat(ours.resolve(new MockHttpServletRequest())).isNull();
	}

	/** The token, or the error code it was refused with. */
	private static Object answer(Supplier<String> resolve) {
		try {
			String token = resolve.get();
			return (token != null) ? token : "(none)";
		}
		catch (OAuth2AuthenticationException ex) {
			return "refused: " + ex.getError().getErrorCode();
		}
	}

}
