package io.kindling.consumer;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * Takes each match event's and each message event's effect once. Delivery is at least
 * once (the relay may send an event again, a consumer may read it again after a crash or
 * a rebalance), so the event id is recorded in the same database transaction as the
 * effect: both commit, or neither does and the record is read again. The offset is
 * committed after that transaction, so a crash between the two only brings a repeat,
 * which is skipped.
 */
@Component
class MatchEventsListener {

	static final String TOPIC = "kindling.matches";

	static final String MESSAGES_TOPIC = "kindling.messages";

	private final ProcessedEvents processed;

	private final MatchNotifications notifications;

	private final JsonMapper json;

	MatchEventsListener(ProcessedEvents processed, MatchNotifications notifications, JsonMapper json) {
		this.processed = processed;
		this.notifications = notifications;
		this.json = json;
	}

	/**
	 * One record; a thrown exception rolls the transaction back and goes to the error
	 * handler ({@link MatchEventsErrorHandling}), which retries or dead-letters it.
	 */
	@KafkaListener(topics = { TOPIC, MESSAGES_TOPIC })
	@Transactional
	void on(ConsumerRecord<String, @Nullable String> record) {
		if (record.topic().equals(MESSAGES_TOPIC)) {
			// keyed by match: one match's messages take effect in the order they were
			// sent
			MessageEvent message = MessageEvent.parse(record.value(), this.json);
			if (this.processed.firstTime(message.eventId()) && message.eventType().equals(MessageEvent.MESSAGE_SENT)) {
				this.notifications.messaged(message);
			}
			return;
		}
		MatchEvent event = MatchEvent.parse(record.value(), this.json);
		if (!this.processed.firstTime(event.eventId())) {
			return;
		}
		switch (event.eventType()) {
			case MatchEvent.MATCH_CREATED -> this.notifications.matched(event);
			case MatchEvent.MATCH_REMOVED -> this.notifications.unmatched(event);
			default -> {
				// a type added after this consumer was written: skipped, not failed
			}
		}
	}

}
