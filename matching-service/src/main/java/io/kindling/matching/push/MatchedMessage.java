package io.kindling.matching.push;

import java.util.List;

import io.kindling.matching.join.MatchingStatus;

/**
 * What one instance tells all others over Redis pub/sub when a room formed: whose streams
 * get the {@code matched} event, and its body.
 */
record MatchedMessage(List<String> tokens, MatchingStatus status) {

	static final String CHANNEL = "matching:matched";

}
