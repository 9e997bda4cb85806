package io.kindling.relay.parked;

/** No parked row has this id (never parked, already retried, or unknown). */
public class ParkedRowNotFound extends RuntimeException {

	public ParkedRowNotFound(String id) {
		super("no parked row with id " + id);
	}

}
