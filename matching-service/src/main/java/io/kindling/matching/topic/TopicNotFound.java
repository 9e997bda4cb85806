package io.kindling.matching.topic;

/** The operators' API was asked for a topic that does not exist: 404. */
public class TopicNotFound extends RuntimeException {

	TopicNotFound(long id) {
		super("no topic has id " + id);
	}

}
