package io.kindling.relay.parked;

/** An admin call without the right token. */
public class AdminTokenMissing extends RuntimeException {

	public AdminTokenMissing(String reason) {
		super(reason);
	}

}
