package io.kindling.swipe.message;

import java.util.ArrayList;
import java.util.List;

import io.kindling.swipe.match.MatchRef;
import io.kindling.swipe.message.MessageWriter.Written;
import io.kindling.swipe.push.UserEvent;
import io.kindling.swipe.push.UserEvents;

import org.springframework.stereotype.Component;

/**
 * Tells both people of a match, on every stream each has open ({@code GET /api/events},
 * the sender's other devices included), of a new message and of a moved read mark, once
 * the transaction that stored it committed.
 */
@Component
class MessagePush {

	static final String MESSAGE_CREATED = "message_created";

	static final String MESSAGE_READ = "message_read";

	private final UserEvents events;

	MessagePush(UserEvents events) {
		this.events = events;
	}

	/**
	 * {@code message_created} with each message, as {@code POST …/messages} answers it,
	 * all in one send: call it after the transaction that stored them committed.
	 */
	void created(List<Written> messages) {
		List<UserEvent> events = new ArrayList<>(2 * messages.size());
		for (Written written : messages) {
			events.addAll(toBoth(written.match(), MESSAGE_CREATED, written.message()));
		}
		this.events.send(events);
	}

	/**
	 * {@code message_read}: the other person sees that their messages were read, the
	 * reader's other devices that they need not show them as unread.
	 */
	void read(MatchRef match, long readerUserId, long messageId) {
		this.events
			.sendAfterCommit(toBoth(match, MESSAGE_READ, new MessageRead(match.matchId(), readerUserId, messageId)));
	}

	private static List<UserEvent> toBoth(MatchRef match, String type, Object data) {
		return List.of(new UserEvent(match.userId1(), type, data), new UserEvent(match.userId2(), type, data));
	}

	record MessageRead(long matchId, long readerUserId, long messageId) {

	}

}
