package io.kindling.matching.room;

import java.util.Map;

/**
 * A conversation refused because some of its participants already sit in a live room: the
 * write rolled back.
 */
class SeatsTaken extends RuntimeException {

	private final Map<String, LiveRoom> taken;

	/**
	 * @param taken by participant key, the live room each sits in
	 */
	SeatsTaken(Map<String, LiveRoom> taken) {
		super(taken.size() + " participant(s) already in a live room", null, false, false);
		this.taken = Map.copyOf(taken);
	}

	Map<String, LiveRoom> taken() {
		return this.taken;
	}

}
