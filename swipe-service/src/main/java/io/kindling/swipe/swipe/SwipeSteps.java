package io.kindling.swipe.swipe;

/**
 * Points between the steps of a swipe where a process can die. Production does nothing
 * there; tests fail there to prove that the reconciler finishes what was left.
 */
interface SwipeSteps {

	SwipeSteps NONE = new SwipeSteps() {
	};

	/** TX 1 committed, Redis not yet asked. */
	default void afterFirstTransaction(SwipeRow swipe) {
	}

	/** The mutual-like script ran (or Redis was unreachable), TX 2 not yet run. */
	default void afterScript(SwipeRow swipe) {
	}

}
