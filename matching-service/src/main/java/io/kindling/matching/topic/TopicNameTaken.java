package io.kindling.matching.topic;

/** Another topic has this name: 409. */
public class TopicNameTaken extends RuntimeException {

	TopicNameTaken(String name) {
		super("a topic is named '" + name + "' already");
	}

}
