package io.kindling.matching.ban;

/**
 * Who may not join, nor start a session; matching only asks, it does not own the list. An
 * address is banned by itself (IPv4), or by a network it lies in: an IPv6 address only
 * ever by its /64 or a wider network, since its owner can pick any address in its /64.
 */
public interface BanList {

	/**
	 * @param sessionKey the SHA-256 (hex) of the session token
	 * @param address the client's IP address; empty when unknown
	 */
	boolean isBanned(String sessionKey, String address);

	/**
	 * Whether this address, or a network it lies in, is banned: no new session from it.
	 */
	boolean isAddressBanned(String address);

}
