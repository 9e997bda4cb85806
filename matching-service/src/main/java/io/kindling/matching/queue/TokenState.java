package io.kindling.matching.queue;

import java.time.Instant;

/**
 * Where a session token is: nowhere, in a queue, in a room being written, or in a room.
 */
public sealed interface TokenState {

	record Idle() implements TokenState {

	}

	/** In a queue since {@code since}. */
	record Waiting(MatchQueue queue, Instant since) implements TokenState {

	}

	/** Popped into a room whose conversation is not written yet: it answers waiting. */
	record Forming(MatchQueue queue, Instant since, String roomId) implements TokenState {

	}

	record Matched(String roomId, long conversationId, int roomType, long topicId,
			Instant matchedAt) implements TokenState {

	}

}
