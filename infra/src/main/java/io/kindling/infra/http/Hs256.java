package io.kindling.infra.http;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Real HS256 tokens, as the services check them, signed with the caller's secret: one
 * each bench and test makes for itself ({@link #newSecret}), none written down anywhere.
 */
public final class Hs256 {

	private static final SecureRandom RANDOM = new SecureRandom();

	private Hs256() {
	}

	/** A new secret: 384 random bits, as {@code ./kindling up} makes one. */
	public static String newSecret() {
		byte[] bytes = new byte[48];
		RANDOM.nextBytes(bytes);
		return Base64.getEncoder().encodeToString(bytes);
	}

	/** A token for {@code userId}, valid for two hours from now. */
	public static String token(String secret, long userId) {
		Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
		long now = Instant.now().getEpochSecond();
		String header = base64.encodeToString("{\"alg\":\"HS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
		String claims = base64
			.encodeToString(("{\"sub\":\"" + userId + "\",\"iat\":" + now + ",\"exp\":" + (now + 7200) + "}")
				.getBytes(StandardCharsets.UTF_8));
		try {
			Mac mac = Mac.getInstance("HmacSHA256");
			mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
			String signature = base64
				.encodeToString(mac.doFinal((header + "." + claims).getBytes(StandardCharsets.UTF_8)));
			return header + "." + claims + "." + signature;
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
