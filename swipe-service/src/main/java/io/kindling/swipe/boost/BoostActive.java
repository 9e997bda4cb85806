package io.kindling.swipe.boost;

import java.time.Instant;

import io.kindling.swipe.web.ProblemException;

import org.springframework.http.HttpStatus;

/** A boost is running: boosts do not stack. */
class BoostActive extends ProblemException {

	BoostActive(Instant expiresAt) {
		super(HttpStatus.CONFLICT, "Boost active", "A boost is already active until " + expiresAt + ".");
	}

}
