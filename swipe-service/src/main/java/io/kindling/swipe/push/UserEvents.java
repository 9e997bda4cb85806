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

	/**
	 * Sends the events now: call it once the transaction that wrote what they report has
	 * committed and given back its connection, so the database connection is not held
	 * while Redis answers.
	 */
	void send(List<UserEvent> events);

}
