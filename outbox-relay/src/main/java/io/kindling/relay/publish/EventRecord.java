package io.kindling.relay.publish;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * The Kafka record of an outbox row: key {@code event_key}, value the payload as stored,
 * and headers both ways a consumer may read them: Kindling's own ({@code event_id},
 * {@code event_type}), CloudEvents 1.0 in binary mode ({@code ce_*} and
 * {@code content-type}, the value being the event's data), and the W3C
 * {@code traceparent} of the request that caused the event, when its row has one, so a
 * consumer's span continues that trace.
 */
final class EventRecord {

	static final String SPEC_VERSION = "1.0";

	static final String CONTENT_TYPE = "application/json";

	private EventRecord() {
	}

	/**
	 * @param source the source's short name ({@code matches}): the events' CloudEvents
	 * source is {@code /kindling/<name>}
	 */
	static ProducerRecord<String, byte[]> of(ClaimedRow row, String topic, String source) {
		RecordHeaders headers = new RecordHeaders();
		add(headers, "event_id", row.eventId());
		add(headers, "event_type", row.eventType());
		add(headers, "ce_specversion", SPEC_VERSION);
		add(headers, "ce_id", row.eventId());
		add(headers, "ce_type", cloudEventType(row.eventType()));
		add(headers, "ce_source", cloudEventSource(source));
		// RFC 3339 in UTC, to the microsecond the row holds
		add(headers, "ce_time", row.createdAt().toString());
		add(headers, "content-type", CONTENT_TYPE);
		if (row.traceparent() != null) {
			add(headers, "traceparent", row.traceparent());
		}
		return new ProducerRecord<>(topic, null, row.eventKey(), row.payload(), headers);
	}

	/**
	 * {@code MATCH_CREATED} → {@code io.kindling.match.created}: CloudEvents asks for a
	 * type prefixed by a reverse-DNS name.
	 */
	static String cloudEventType(String eventType) {
		return "io.kindling." + eventType.toLowerCase(Locale.ROOT).replace('_', '.');
	}

	static String cloudEventSource(String source) {
		return "/kindling/" + source;
	}

	private static void add(RecordHeaders headers, String name, String value) {
		headers.add(name, value.getBytes(StandardCharsets.UTF_8));
	}

}
