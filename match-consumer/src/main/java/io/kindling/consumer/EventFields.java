package io.kindling.consumer;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.UUID;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the fields of a Kindling event's JSON value; whatever cannot be read is a
 * {@link MalformedEvent}.
 */
final class EventFields {

	private EventFields() {
	}

	static JsonNode read(@Nullable String value, JsonMapper json) {
		if (value == null) {
			throw new MalformedEvent("a record without a value");
		}
		try {
			return json.readTree(value);
		}
		catch (JacksonException ex) {
			throw new MalformedEvent("a value that is not JSON", ex);
		}
	}

	static String text(JsonNode event, String field) {
		JsonNode node = event.get(field);
		if (node == null || !node.isString()) {
			throw new MalformedEvent(field + " is missing or not a string");
		}
		return node.asString();
	}

	static long number(JsonNode event, String field) {
		JsonNode node = event.get(field);
		if (node == null || !node.isIntegralNumber()) {
			throw new MalformedEvent(field + " is missing or not a whole number");
		}
		return node.asLong();
	}

	static UUID uuid(JsonNode event, String field) {
		try {
			return UUID.fromString(text(event, field));
		}
		catch (IllegalArgumentException ex) {
			throw new MalformedEvent(field + " is not a UUID", ex);
		}
	}

	static Instant instant(JsonNode event, String field) {
		try {
			return Instant.parse(text(event, field));
		}
		catch (DateTimeParseException ex) {
			throw new MalformedEvent(field + " is not an ISO-8601 time", ex);
		}
	}

}
