package io.kindling.matching.chat;

/**
 * A room's socket refused before the upgrade; the web edge gives each reason its problem
 * type.
 */
public final class ChatRefused extends RuntimeException {

	public enum Reason {

		/** The session is not one of the room's people: 403. */
		NOT_IN_ROOM,

		/** No such conversation: 404. */
		NO_SUCH_ROOM,

		/** The room ended, or the session left it: 410. */
		ROOM_ENDED,

		/** Not a WebSocket handshake, or an {@code after} no frame carried: 400. */
		BAD_HANDSHAKE

	}

	private final Reason reason;

	ChatRefused(Reason reason, String detail) {
		super(detail);
		this.reason = reason;
	}

	public Reason reason() {
		return this.reason;
	}

}
