package io.kindling.swipe.message;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.kindling.outbox.OutboxEvent;
import io.kindling.outbox.OutboxTable;
import io.kindling.outbox.OutboxWriter;
import io.kindling.swipe.match.MatchMessage;
import io.kindling.swipe.match.MatchRef;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.annotation.Bean;
import org.springframework.stereotype.Component;

/**
 * The {@code MESSAGE_SENT} events of {@code message_outbox}, which the relay publishes to
 * {@code kindling.messages} keyed by match, so a match's messages stay in order. An event
 * says who wrote to whom and when, never the text: a consumer that notifies people needs
 * no more, and the text stays in one place.
 */
@Component
class MessageOutbox {

	static final String MESSAGE_SENT = "MESSAGE_SENT";

	static final OutboxTable TABLE = new OutboxTable("message_outbox");

	private final OutboxWriter outbox;

	private final JsonMapper json;

	MessageOutbox(OutboxWriter outbox, JsonMapper json) {
		this.outbox = outbox.to(TABLE);
		this.json = json;
	}

	/** Has the outbox module make and migrate the table beside {@code match_outbox}. */
	@Bean
	static OutboxTable messageOutboxTable() {
		return TABLE;
	}

	/**
	 * In the transaction that stored the messages, one row each, in one statement, each
	 * with the trace context of the request that sent it.
	 */
	void messagesSent(List<Stored> stored) {
		this.outbox.appendTraced(stored.stream()
			.map((one) -> new OutboxWriter.Traced(event(one.message(), one.match()), one.traceparent()))
			.toList());
	}

	/** The trace context of the request on this thread, for {@link #messagesSent}. */
	@Nullable String currentTrace() {
		return this.outbox.currentTrace();
	}

	private OutboxEvent event(MatchMessage message, MatchRef match) {
		UUID eventId = UUID.nameUUIDFromBytes(
				("kindling.messages/" + message.messageId() + "/" + MESSAGE_SENT).getBytes(StandardCharsets.UTF_8));
		MessageSent event = new MessageSent(eventId, MESSAGE_SENT, message.matchId(), message.messageId(),
				message.fromUserId(), match.otherThan(message.fromUserId()), message.sentAt());
		return new OutboxEvent(eventId, MESSAGE_SENT, String.valueOf(message.matchId()),
				this.json.writeValueAsString(event), message.sentAt());
	}

	/**
	 * A message as stored, in its match.
	 *
	 * @param traceparent the trace context of the request that sent it, if any
	 */
	record Stored(MatchMessage message, MatchRef match, @Nullable String traceparent) {

	}

	record MessageSent(UUID eventId, String eventType, long matchId, long messageId, long fromUserId, long toUserId,
			Instant sentAt) {

	}

}
