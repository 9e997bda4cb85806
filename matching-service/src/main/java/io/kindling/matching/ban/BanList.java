package io.kindling.matching.ban;

/** Who may not join; matching only asks, it does not own the list. */
public interface BanList {

	/**
	 * @param sessionKey the SHA-256 (hex) of the session token
	 * @param address the client's IP address
	 */
	boolean isBanned(String sessionKey, String address);

	/**
	 * Whether this session is banned, whatever its address.
	 * @param sessionKey the SHA-256 (hex) of the session token
	 */
	boolean isSessionBanned(String sessionKey);

}
