package io.kindling.matching.chat;

import java.time.Instant;

import io.kindling.redis.StreamEntryId;
import org.jspecify.annotations.Nullable;

/**
 * One entry of a room's stream, in the order everyone sees: a message, or someone joining
 * or leaving.
 *
 * @param id the stream's id for it, {@code <ms>-<seq>}, which only grows within a room
 * @param member who wrote, joined or left (an alias)
 * @param text the message's text; null for a join or a leave
 * @param clientMessageId the sender's own id for the message, shown only to the sender
 * @param at when it happened, by the writing instance's clock
 */
record ChatEntry(StreamEntryId id, Kind kind, String member, @Nullable String text, @Nullable String clientMessageId,
		Instant at) {

	enum Kind {

		MESSAGE, JOINED, LEFT

	}

}
