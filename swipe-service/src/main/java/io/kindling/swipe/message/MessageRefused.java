package io.kindling.swipe.message;

/** A message call refused, and why; the web edge gives each reason its problem type. */
public final class MessageRefused extends RuntimeException {

	public enum Reason {

		/** Not the caller's match, or one that ended. */
		NO_SUCH_MATCH,

		BAD_MESSAGE,

		CLIENT_MESSAGE_ID_REUSED,

		NO_SUCH_MESSAGE,

		RATE_LIMITED

	}

	private final Reason reason;

	private final long retryAfterSeconds;

	private MessageRefused(Reason reason, String detail, long retryAfterSeconds) {
		super(detail);
		this.reason = reason;
		this.retryAfterSeconds = retryAfterSeconds;
	}

	static MessageRefused noSuchMatch(long matchId) {
		return new MessageRefused(Reason.NO_SUCH_MATCH, "You have no match " + matchId + ".", 0);
	}

	static MessageRefused badMessage(String detail) {
		return new MessageRefused(Reason.BAD_MESSAGE, detail, 0);
	}

	static MessageRefused clientMessageIdReused(String clientMessageId) {
		return new MessageRefused(Reason.CLIENT_MESSAGE_ID_REUSED,
				"client_message_id " + clientMessageId + " was sent in this match with another text.", 0);
	}

	static MessageRefused noSuchMessage(long messageId) {
		return new MessageRefused(Reason.NO_SUCH_MESSAGE, "This match has no message " + messageId + ".", 0);
	}

	static MessageRefused rateLimited(long retryAfterSeconds) {
		return new MessageRefused(Reason.RATE_LIMITED,
				"You are sending messages too fast; retry in " + retryAfterSeconds + " s.", retryAfterSeconds);
	}

	public Reason reason() {
		return this.reason;
	}

	/** For {@link Reason#RATE_LIMITED}: whole seconds until a message may go; else 0. */
	public long retryAfterSeconds() {
		return this.retryAfterSeconds;
	}

}
