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

	private static final MessageDigest SHA_256;

	static {
		try {
			SHA_256 = MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("every JDK has SHA-256", ex);
		}
	}

	/**
	 * The SHA-256 (hex) of the token: what is stored in MySQL, since the token itself is
	 * a credential.
	 */
	public String key() {
		return keyOf(this.token);
	}

	public static String keyOf(String token) {
		// a copy of a ready digest: MessageDigest.getInstance searches the providers
		// every time, which cost more than the hash itself
		byte[] digest = sha256().digest(token.getBytes(StandardCharsets.US_ASCII));
		return HexFormat.of().formatHex(digest);
	}

	private static MessageDigest sha256() {
		try {
			return (MessageDigest) SHA_256.clone();
		}
		catch (CloneNotSupportedException ex) {
			throw new IllegalStateException("the JDK's SHA-256 can be cloned", ex);
		}
	}

	@Override
	public String toString() {
		return "Session[token=<hidden>]";
	}

}
