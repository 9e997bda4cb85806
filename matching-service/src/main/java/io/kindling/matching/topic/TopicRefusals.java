package io.kindling.matching.topic;

import io.kindling.support.web.Refusal;
import io.kindling.support.web.Refused;

import org.springframework.http.HttpStatus;

/** The ways the operators' topic API refuses a call. */
enum TopicRefusals implements Refusal {

	NO_SUCH_TOPIC("no-such-topic", HttpStatus.NOT_FOUND, "No such topic"),

	TOPIC_NAME_TAKEN("topic-name-taken", HttpStatus.CONFLICT, "Topic name taken");

	private final Type type;

	TopicRefusals(String slug, HttpStatus status, String title) {
		this.type = new Type(slug, status, title);
	}

	@Override
	public Type type() {
		return this.type;
	}

	static Refused nameTaken(String name) {
		return TOPIC_NAME_TAKEN.refused("a topic is named '" + name + "' already");
	}

}
