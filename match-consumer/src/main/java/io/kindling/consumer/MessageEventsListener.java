package io.kindling.consumer;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * Tells the recipient of each match message once, as {@link MatchEventsListener} does for
 * matches: the event id is recorded in the transaction of the effect, and a repeat is
 * skipped. Records are keyed by match, so one match's messages take effect in the order
 * they were sent.
 */
@Component
class MessageEventsListener {

	static final String TOPIC = "kindling.messages";

	private final ProcessedEvents processed;

	private final MatchNotifications notifications;

	private final JsonMapper json;

	MessageEventsListener(ProcessedEvents processed, MatchNotifications notifications, JsonMapper json) {
		this.processed = processed;
		this.notifications = notifications;
		this.json = json;
	}

	@KafkaListener(topics = TOPIC)
	@Transactional
	void on(ConsumerRecord<String, @Nullable String> record) {
		MessageEvent event = MessageEvent.parse(record.value(), this.json);
		if (!this.processed.firstTime(event.eventId())) {
			return;
		}
		if (event.eventType().equals(MessageEvent.MESSAGE_SENT)) {
			this.notifications.messaged(event);
		}
		// a type added after this consumer was written: skipped, not failed
	}

}
