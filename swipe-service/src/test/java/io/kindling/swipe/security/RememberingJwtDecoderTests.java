package io.kindling.swipe.security;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import javax.crypto.spec.SecretKeySpec;

import io.kindling.infra.test.MutableClock;
import io.kindling.swipe.TestTokens;
import org.junit.jupiter.api.Test;

import org.springframework.security.oauth2.jose.jws.MacAlgorithm;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtTimestampValidator;
import org.springframework.security.oauth2.jwt.JwtValidationException;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class RememberingJwtDecoderTests {

	private final MutableClock clock = MutableClock.ticking();

	private final AtomicInteger verified = new AtomicInteger();

	private final RememberingJwtDecoder decoder = decoder();

	@Test
	void verifiesATokenOnceAndAnswersItsReuseFromMemory() {
		String token = TestTokens.signed(TestTokens.SECRET, "42", this.clock.instant().plusSeconds(3600));
		Jwt first = this.decoder.decode(token);
		Jwt again = this.decoder.decode(token);
		assertThat(again).isSameAs(first);
		assertThat(again.getSubject()).isEqualTo("42");
		assertThat(this.verified).hasValue(1);
	}

	@Test
	void aRememberedTokenStopsWorkingWhenItExpires() {
		String token = TestTokens.signed(TestTokens.SECRET, "42", this.clock.instant().plusSeconds(60));
		this.decoder.decode(token);
		this.clock.advance(Duration.ofSeconds(61));
		assertThatExceptionOfType(JwtValidationException.class).isThrownBy(() -> this.decoder.decode(token))
			.withMessageContaining("expired");
		// and is forgotten: the next try is verified (and refused) from scratch
		assertThatExceptionOfType(JwtValidationException.class).isThrownBy(() -> this.decoder.decode(token));
		assertThat(this.verified).hasValue(2);
	}

	@Test
	void aForgedTokenIsNeverRemembered() {
		String forged = TestTokens.signed("another-secret-that-is-long-enough-for-hs256", "42",
				this.clock.instant().plusSeconds(3600));
		assertThatExceptionOfType(BadJwtException.class).isThrownBy(() -> this.decoder.decode(forged));
		assertThatExceptionOfType(BadJwtException.class).isThrownBy(() -> this.decoder.decode(forged));
		assertThat(this.verified).hasValue(2);
	}

	private RememberingJwtDecoder decoder() {
		NimbusJwtDecoder nimbus = NimbusJwtDecoder
			.withSecretKey(new SecretKeySpec(TestTokens.SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"))
			.macAlgorithm(MacAlgorithm.HS256)
			.build();
		JwtTimestampValidator expiry = new JwtTimestampValidator(Duration.ZERO);
		expiry.setClock(this.clock);
		nimbus.setJwtValidator(expiry);
		JwtDecoder counting = (token) -> {
			this.verified.incrementAndGet();
			return nimbus.decode(token);
		};
		return new RememberingJwtDecoder(counting, expiry, 100);
	}

}
