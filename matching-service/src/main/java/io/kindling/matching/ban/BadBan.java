package io.kindling.matching.ban;

/**
 * A ban the operators' API cannot make: a value that is not an IP address or a session
 * key, or an expiry in the past: 400.
 */
public class BadBan extends RuntimeException {

	BadBan(String message) {
		super(message);
	}

}
