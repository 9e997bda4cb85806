package io.kindling.consumer;

/**
 * A record that is not a match event this consumer understands (no JSON, a field missing
 * or of the wrong type): trying again cannot help, so it goes to the dead-letter topic at
 * once.
 */
class MalformedEvent extends RuntimeException {

	MalformedEvent(String message) {
		super(message);
	}

	MalformedEvent(String message, Throwable cause) {
		super(message, cause);
	}

}
