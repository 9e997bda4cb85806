package io.kindling.matching.queue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Names a session in another's list of recent partners without its token (a credential):
 * the first 16 hex digits of the SHA-1 of the token, which {@code form_room.lua} computes
 * the same way ({@code redis.sha1hex}) for the entries it compares.
 */
public final class RecentPartners {

	private RecentPartners() {
	}

	public static String idOf(String token) {
		try {
			byte[] digest = MessageDigest.getInstance("SHA-1").digest(token.getBytes(StandardCharsets.US_ASCII));
			return HexFormat.of().formatHex(digest, 0, 8);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("every JDK has SHA-1", ex);
		}
	}

}
