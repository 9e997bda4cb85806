package io.kindling.consumer;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** Reading a {@code kindling.messages} record's value. */
class MessageEventTests {

	private final JsonMapper json = JsonMapper.builder().build();

	@Test
	void aMessageSentSaysWhoWroteToWhomAndWhen() {
		UUID id = UUID.randomUUID();
		MessageEvent event = MessageEvent.parse("""
				{"event_id":"%s","event_type":"MESSAGE_SENT","match_id":9,"message_id":41,"from_user_id":12,
				 "to_user_id":34,"sent_at":"2026-12-02T10:00:00.120Z","added_later":true}
				""".formatted(id), this.json);
		assertThat(event)
			.isEqualTo(new MessageEvent(id, "MESSAGE_SENT", 9, 41, 12, 34, Instant.parse("2026-12-02T10:00:00.120Z")));
	}

	@Test
	void aTypeAddedLaterNeedsOnlyItsIdAndType() {
		MessageEvent event = MessageEvent.parse("""
				{"event_id":"%s","event_type":"MESSAGE_EDITED"}
				""".formatted(UUID.randomUUID()), this.json);
		assertThat(event.eventType()).isEqualTo("MESSAGE_EDITED");
		assertThat(event.matchId()).isZero();
	}

	@Test
	void whatCannotBeReadIsMalformed() {
		String id = UUID.randomUUID().toString();
		for (String value : List.of("", "{\"event_type\":\"MESSAGE_SENT\"}",
				"{\"event_id\":\"" + id + "\",\"event_type\":\"MESSAGE_SENT\",\"match_id\":1,\"message_id\":2,"
						+ "\"from_user_id\":3,\"to_user_id\":4}",
				"{\"event_id\":\"" + id + "\",\"event_type\":\"MESSAGE_SENT\",\"match_id\":1,\"message_id\":2,"
						+ "\"from_user_id\":\"3\",\"to_user_id\":4,\"sent_at\":\"2026-12-02T10:00:00Z\"}")) {
			assertThatExceptionOfType(MalformedEvent.class).as(value)
				.isThrownBy(() -> MessageEvent.parse(value, this.json));
		}
	}

}
