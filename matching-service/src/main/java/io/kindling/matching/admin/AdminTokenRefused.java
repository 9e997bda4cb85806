package io.kindling.matching.admin;

/** An operators' call without the right admin token: 401. */
public class AdminTokenRefused extends RuntimeException {

	AdminTokenRefused(String message) {
		super(message);
	}

}
