package io.kindling.swipe.security;

import java.nio.charset.StandardCharsets;

import jakarta.validation.constraints.PositiveOrZero;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The HS256 secret shared with the app's own auth service, which issues the tokens.
 *
 * @param jwtSecret its UTF-8 bytes are the HMAC key; at least 32 of them (RFC 7518 §3.2).
 * None ships with the service: without it (or an auth service's key set,
 * {@link JwtKeyRequired}) the service does not start
 * @param rememberedTokens how many verified tokens to remember, so a client's next call
 * with the same token skips the signature check (about 1 KB of heap each); 0 checks every
 * call
 */
@Validated
@ConfigurationProperties("kindling.security")
public record SecurityProperties(@Nullable String jwtSecret,
		@DefaultValue("50000") @PositiveOrZero int rememberedTokens) {

	static final int MIN_KEY_BYTES = 32;

	public SecurityProperties {
		if (jwtSecret != null && !jwtSecret.isEmpty()
				&& jwtSecret.getBytes(StandardCharsets.UTF_8).length < MIN_KEY_BYTES) {
			throw new IllegalArgumentException("kindling.security.jwt-secret (KINDLING_JWT_SECRET) must be at least "
					+ MIN_KEY_BYTES + " bytes for HS256; it is " + jwtSecret.getBytes(StandardCharsets.UTF_8).length);
		}
	}

	byte[] keyBytes() {
		if (this.jwtSecret == null || this.jwtSecret.isBlank()) {
			throw new IllegalStateException(JwtKeyRequired.SECRET + " is not set");
		}
		return this.jwtSecret.getBytes(StandardCharsets.UTF_8);
	}

}
