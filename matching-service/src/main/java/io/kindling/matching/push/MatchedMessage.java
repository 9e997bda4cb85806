package io.kindling.matching.push;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.kindling.matching.join.MatchingStatus;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.json.JsonMapper;

/**
 * What one instance tells all others over Redis pub/sub when a room formed: whose streams
 * get the {@code matched} event, and its body. The tokens come first, so that an instance
 * can tell from them alone whether the message is for it.
 */
@JsonPropertyOrder({ "tokens", "status" })
record MatchedMessage(List<String> tokens, MatchingStatus.Matched status) {

	static final String CHANNEL = "matching:matched";

	/**
	 * The tokens of a message, read ahead of its status, so that an instance holding none
	 * of their streams (most instances, for most rooms) skips binding the rest.
	 * @return the tokens, or null when the message does not open with them
	 */
	static @Nullable List<String> leadingTokens(JsonMapper json, byte[] body) {
		try (JsonParser parser = json.createParser(body)) {
			if (parser.nextToken() != JsonToken.START_OBJECT || parser.nextToken() != JsonToken.PROPERTY_NAME
					|| !"tokens".equals(parser.currentName()) || parser.nextToken() != JsonToken.START_ARRAY) {
				return null;
			}
			List<String> tokens = new ArrayList<>(3);
			while (parser.nextToken() == JsonToken.VALUE_STRING) {
				tokens.add(parser.getString());
			}
			return (parser.currentToken() == JsonToken.END_ARRAY) ? tokens : null;
		}
	}

}
