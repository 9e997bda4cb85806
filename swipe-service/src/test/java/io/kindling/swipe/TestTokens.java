package io.kindling.swipe;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.kindling.infra.http.Hs256;
import org.jspecify.annotations.Nullable;

/** Signs tokens the way the app's auth service would, and a few ways it never would. */
public final class TestTokens {

	/**
	 * This test run's secret, made anew for each JVM; every service the tests start takes
	 * it ({@link TestSecret}).
	 */
	public static final String SECRET = Hs256.newSecret();

	private TestTokens() {
	}

	public static String forUser(long userId) {
		return signed(SECRET, String.valueOf(userId), Instant.now().plusSeconds(3600));
	}

	public static String signed(String secret, @Nullable String subject, @Nullable Instant expiresAt) {
		JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().issueTime(new Date());
		if (subject != null) {
			claims.subject(subject);
		}
		if (expiresAt != null) {
			claims.expirationTime(Date.from(expiresAt));
		}
		SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims.build());
		try {
			jwt.sign(new MACSigner(secret.getBytes(StandardCharsets.UTF_8)));
		}
		catch (JOSEException ex) {
			throw new IllegalStateException(ex);
		}
		return jwt.serialize();
	}

	/** An unsecured JWT ({@code alg: none}) claiming to be the user. */
	public static String unsigned(long userId) {
		Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
		String header = base64.encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
		String claims = base64.encodeToString(
				("{\"sub\":\"" + userId + "\",\"exp\":" + Instant.now().plusSeconds(3600).getEpochSecond() + "}")
					.getBytes(StandardCharsets.UTF_8));
		return header + "." + claims + ".";
	}

}
