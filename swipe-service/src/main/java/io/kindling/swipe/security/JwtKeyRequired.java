package io.kindling.swipe.security;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.util.StringUtils;

/**
 * Stops the start, before anything connects anywhere, when the service has no way to
 * verify a token: neither the HS256 secret nor an auth service's key set is configured.
 * No secret ships with the service, so a forgotten setting is an error, never a default
 * anyone who reads the code could sign with.
 */
final class JwtKeyRequired implements EnvironmentPostProcessor {

	static final String SECRET = "kindling.security.jwt-secret";

	static final String JWK_SET_URI = "spring.security.oauth2.resourceserver.jwt.jwk-set-uri";

	static final String ISSUER_URI = "spring.security.oauth2.resourceserver.jwt.issuer-uri";

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		if (!StringUtils.hasText(environment.getProperty(SECRET))
				&& !StringUtils.hasText(environment.getProperty(JWK_SET_URI))
				&& !StringUtils.hasText(environment.getProperty(ISSUER_URI))) {
			throw new IllegalStateException(SECRET + " is not set, and neither is " + JWK_SET_URI + " nor " + ISSUER_URI
					+ ": swipe-service cannot verify a token. Set " + SECRET
					+ " (environment KINDLING_JWT_SECRET) to the HS256 secret your auth service signs with, at least "
					+ SecurityProperties.MIN_KEY_BYTES + " bytes, or point the service at its key set.");
		}
	}

}
