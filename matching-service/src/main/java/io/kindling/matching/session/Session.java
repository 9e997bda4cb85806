package io.kindling.matching.session;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * An anonymous session, resolved from {@code Authorization: Bearer <token>} on every
 * matching call.
 */
public record Session(String token) {

	/**
	 * The SHA-256 (hex) of the token: what is stored in MySQL, since the token itself is
	 * a credential.
	 */
	public String key() {
		return keyOf(this.token);
	}

	public static String keyOf(String token) {
		try {
			byte[] digest = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.US_ASCII));
			return HexFormat.of().formatHex(digest);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("every JDK has SHA-256", ex);
		}
	}

	@Override
	public String toString() {
		return "Session[token=<hidden>]";
	}

}
