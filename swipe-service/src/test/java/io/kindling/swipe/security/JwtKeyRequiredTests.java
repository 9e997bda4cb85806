package io.kindling.swipe.security;

import io.kindling.swipe.SwipeApplication;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * No secret ships with swipe-service: without one, or an auth service's key set, it stops
 * at start-up, before it connects to anything, and says which setting is missing.
 */
class JwtKeyRequiredTests {

	@Test
	void withoutASecretOrAKeySetTheServiceStopsAtStartUpNamingTheSetting() {
		assertThatIllegalStateException()
			.isThrownBy(() -> new SpringApplicationBuilder(SwipeApplication.class)
				.run("--kindling.security.jwt-secret=", "--server.port=0"))
			.withMessageContaining("kindling.security.jwt-secret is not set")
			.withMessageContaining("KINDLING_JWT_SECRET");
	}

	@Test
	void aSecretOrAnAuthServicesKeySetIsEnough() {
		JwtKeyRequired check = new JwtKeyRequired();

		assertThatNoException().isThrownBy(() -> check
			.postProcessEnvironment(new MockEnvironment().withProperty(JwtKeyRequired.SECRET, "x".repeat(32)), null));
		assertThatNoException().isThrownBy(() -> check.postProcessEnvironment(
				new MockEnvironment().withProperty(JwtKeyRequired.JWK_SET_URI, "http://auth/.well-known/jwks.json"),
				null));
		assertThatNoException().isThrownBy(() -> check.postProcessEnvironment(
				new MockEnvironment().withProperty(JwtKeyRequired.ISSUER_URI, "http://auth"), null));
		assertThatIllegalStateException().isThrownBy(() -> check
			.postProcessEnvironment(new MockEnvironment().withProperty(JwtKeyRequired.SECRET, " "), null));
	}

}
