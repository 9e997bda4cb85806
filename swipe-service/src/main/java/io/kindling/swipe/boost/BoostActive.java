package io.kindling.swipe.boost;

import java.time.Instant;

/** A boost is running: boosts do not stack. */
public final class BoostActive extends RuntimeException {

	BoostActive(Instant expiresAt) {
		super("A boost is already active until " + expiresAt + ".");
	}

}
