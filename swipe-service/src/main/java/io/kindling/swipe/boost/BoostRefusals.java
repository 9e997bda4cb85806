package io.kindling.swipe.boost;

import io.kindling.support.web.Refusal;

import org.springframework.http.HttpStatus;

/** The ways a boost is refused. */
enum BoostRefusals implements Refusal {

	/** A boost is running: boosts do not stack. */
	BOOST_ACTIVE("boost-active", HttpStatus.CONFLICT, "Boost active"),

	/** One boost per cooldown period. */
	BOOST_COOLDOWN("boost-cooldown", HttpStatus.TOO_MANY_REQUESTS, "Boost cooldown"),

	/** The caller has no boost running ({@code GET /api/boosts/current}). */
	NO_ACTIVE_BOOST("no-active-boost", HttpStatus.NOT_FOUND, "No active boost");

	private final Type type;

	BoostRefusals(String slug, HttpStatus status, String title) {
		this.type = new Type(slug, status, title);
	}

	@Override
	public Type type() {
		return this.type;
	}

}
