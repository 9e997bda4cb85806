package io.kindling.matching.session;

/** No valid session token came with the request. */
public class Unauthenticated extends RuntimeException {

	Unauthenticated(String message) {
		super(message);
	}

}
