package io.kindling.swipe.message;

import io.kindling.support.web.Refusal;

import org.springframework.http.HttpStatus;

/**
 * The ways a message call is refused, beside the match's own ({@code no-such-match}: not
 * the caller's match, or one that ended).
 */
enum MessageRefusals implements Refusal {

	/** A text that breaks the message text rule, or no good {@code client_message_id}. */
	BAD_MESSAGE("bad-message", HttpStatus.BAD_REQUEST, "Bad message"),

	/** The same {@code client_message_id} again with another text. */
	CLIENT_MESSAGE_ID_REUSED("client-message-id-reused", HttpStatus.CONFLICT, "client_message_id reused"),

	NO_SUCH_MESSAGE("no-such-message", HttpStatus.NOT_FOUND, "No such message");

	private final Type type;

	MessageRefusals(String slug, HttpStatus status, String title) {
		this.type = new Type(slug, status, title);
	}

	@Override
	public Type type() {
		return this.type;
	}

}
