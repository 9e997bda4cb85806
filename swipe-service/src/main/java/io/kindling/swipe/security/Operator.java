package io.kindling.swipe.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The principal of an operators' call ({@code /api/admin/**}): the token it presented,
 * known by its id, which is what the audit and the resolutions record, never the token.
 *
 * @param tokenId the first 16 hex digits of the SHA-256 of the token
 */
public record Operator(String tokenId) {

	static Operator holding(byte[] token) {
		try {
			byte[] digest = MessageDigest.getInstance("SHA-256").digest(token);
			return new Operator(HexFormat.of().formatHex(digest, 0, 8));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("every JVM has SHA-256", ex);
		}
	}

	static Operator holding(String token) {
		return holding(token.getBytes(StandardCharsets.UTF_8));
	}

}
