package io.kindling.swipe.match;

import java.time.Instant;

/**
 * One message of a match's conversation, as both people and their event streams see it.
 *
 * @param messageId the message's id: ids grow as messages are stored
 * @param clientMessageId the sender's own id for it, which makes a retried send
 * idempotent
 */
public record MatchMessage(long messageId, long matchId, long fromUserId, String text, String clientMessageId,
		Instant sentAt) {

}
