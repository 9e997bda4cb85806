package io.kindling.matching.session;

/** No new session from an address, or a network, on the ban list: 403. */
public class AddressBanned extends RuntimeException {

	AddressBanned() {
		super("this address may not start sessions");
	}

}
