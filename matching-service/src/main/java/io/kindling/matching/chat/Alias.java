package io.kindling.matching.chat;

/**
 * What a room's people call each other: the letter of their seat, A for the first, B, C.
 * Never a token, a session key or an address.
 */
final class Alias {

	private Alias() {
	}

	/** The alias of a seat, 1 for A. */
	static String ofSeat(int seat) {
		if (seat < 1 || seat > 26) {
			throw new IllegalArgumentException("no alias for seat " + seat);
		}
		return String.valueOf((char) ('A' + seat - 1));
	}

}
