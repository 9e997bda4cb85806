package io.kindling.swipe.push;

/** Ends users' open event streams on this instance. */
public interface UserDisconnects {

	/**
	 * Sends each stream the user has open here one last event, {@code event} with an
	 * empty object as its data and no id (it is not in the user's log), then ends it.
	 */
	void disconnect(long userId, String event);

}
