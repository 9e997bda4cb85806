package io.kindling.swipe.boost;

/** The caller has no boost running ({@code GET /api/boosts/current}). */
public final class NoActiveBoost extends RuntimeException {

	NoActiveBoost() {
		super("You have no boost running.");
	}

}
