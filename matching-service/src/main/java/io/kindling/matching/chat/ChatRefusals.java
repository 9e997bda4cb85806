package io.kindling.matching.chat;

import io.kindling.support.web.Refusal;

import org.springframework.http.HttpStatus;

/**
 * The ways a room's socket is refused: before the upgrade as a problem detail, or once
 * open as an error frame, whose status and title are the same.
 */
enum ChatRefusals implements Refusal {

	/** The session is not one of the room's people. */
	NOT_IN_ROOM("not-in-room", HttpStatus.FORBIDDEN, "Not in this room"),

	NO_SUCH_ROOM("no-such-room", HttpStatus.NOT_FOUND, "No such room"),

	/** The room ended, or the session left it. */
	ROOM_ENDED("room-ended", HttpStatus.GONE, "Room ended"),

	/**
	 * An error frame: a text that breaks the message text rule, or no good
	 * {@code client_message_id}.
	 */
	BAD_MESSAGE("bad-message", HttpStatus.BAD_REQUEST, "Bad message");

	private final Type type;

	ChatRefusals(String slug, HttpStatus status, String title) {
		this.type = new Type(slug, status, title);
	}

	@Override
	public Type type() {
		return this.type;
	}

}
