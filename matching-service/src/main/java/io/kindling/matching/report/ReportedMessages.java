package io.kindling.matching.report;

import java.time.Instant;
import java.util.List;

/**
 * What a reported session last wrote in the room it was reported from, shown to the
 * moderators beside the report. Room chat keeps the messages; until it does, no bean
 * implements this and reports carry none.
 */
public interface ReportedMessages {

	/**
	 * The session's last messages in that conversation, newest first, at most
	 * {@code limit}.
	 */
	List<Message> lastMessages(long conversationId, String sessionKey, int limit);

	/**
	 * @param from the alias the room showed for the author (A, B, C), never a token
	 */
	record Message(long id, String from, String text, Instant sentAt) {

	}

}
