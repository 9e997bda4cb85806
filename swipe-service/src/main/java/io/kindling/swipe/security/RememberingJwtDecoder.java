package io.kindling.swipe.security;

import java.time.Duration;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidatorResult;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtValidationException;

/**
 * Checks a token's signature once. A client sends the same JWT on every call until it
 * expires, and parsing it and checking its HMAC again each time cost about a tenth of a
 * swipe's CPU. A remembered token is still validated on every use (expiry, subject), so
 * it stops working the moment it expires, as a freshly decoded one would.
 */
final class RememberingJwtDecoder implements JwtDecoder {

	private final JwtDecoder verifier;

	private final OAuth2TokenValidator<Jwt> validator;

	private final Cache<String, Jwt> verified;

	/**
	 * @param verifier decodes, verifies and validates a token seen for the first time
	 * @param validator what {@code verifier} validates with, run again on each reuse
	 */
	RememberingJwtDecoder(JwtDecoder verifier, OAuth2TokenValidator<Jwt> validator, int maxTokens) {
		this.verifier = verifier;
		this.validator = validator;
		// bounded in count and age: a token read once and never again does not stay
		this.verified = Caffeine.newBuilder().maximumSize(maxTokens).expireAfterAccess(Duration.ofMinutes(10)).build();
	}

	@Override
	public Jwt decode(String token) {
		Jwt known = this.verified.getIfPresent(token);
		if (known == null) {
			Jwt jwt = this.verifier.decode(token);
			this.verified.put(token, jwt);
			return jwt;
		}
		OAuth2TokenValidatorResult result = this.validator.validate(known);
		if (result.hasErrors()) {
			this.verified.invalidate(token);
			String description = result.getErrors()
				.stream()
				.map(OAuth2Error::getDescription)
				.filter((text) -> text != null)
				.findFirst()
				.orElse("invalid token");
			throw new JwtValidationException(description, result.getErrors());
		}
		return known;
	}

}
