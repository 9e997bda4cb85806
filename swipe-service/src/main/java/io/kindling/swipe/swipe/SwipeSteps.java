package io.kindling.swipe.swipe;

/**
 * Points between the steps of a swipe where a process can die or be overtaken. Production
 * does nothing there; tests fail there to prove that the reconciler finishes what was
 * left, or wait there to let a block race the match.
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

	/**
	 * Inside TX 2, which holds the pair's lock and found no block: the match is about to
	 * be written.
	 */
	default void beforeMatchWritten(SwipeRow swipe) {
	}

}
