package io.kindling.swipe.push;

import java.util.List;

/**
 * What one instance tells all others over Redis pub/sub: events just appended to their
 * recipients' logs, each with the id of the event before it in its log.
 */
record PushMessage(List<Pushed> events) {

	static final String CHANNEL = "user_events";

	record Pushed(long recipient, String id, String previous, String type, String data) {

	}

}
