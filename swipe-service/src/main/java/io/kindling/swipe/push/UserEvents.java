package io.kindling.swipe.push;

import java.util.List;

/** Sends events to users' streams, on whichever instance each user is connected. */
public interface UserEvents {

	/**
	 * Sends the events once the current transaction commits, and never if it rolls back:
	 * call it in the transaction that wrote what they report.
	 * @throws IllegalStateException outside a transaction
	 */
	void sendAfterCommit(List<UserEvent> events);

}
