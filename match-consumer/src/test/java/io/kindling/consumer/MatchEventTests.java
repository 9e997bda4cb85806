package io.kindling.consumer;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** Reading a record's value: what the consumer needs, or a malformed event. */
class MatchEventTests {

	private final JsonMapper json = JsonMapper.builder().build();

	@Test
	void aMatchCreatedHasItsPairAndTime() {
		UUID id = UUID.randomUUID();
		MatchEvent event = MatchEvent.parse("""
				{"event_id":"%s","event_type":"MATCH_CREATED","event_key":"12:34","match_id":9,"user_ids":[12,34],
				 "matched_at":"2026-12-02T10:00:00Z","occurred_at":"2026-12-02T10:00:00.120Z","added_later":true}
				""".formatted(id), this.json);
		assertThat(event.eventId()).isEqualTo(id);
		assertThat(event.matchId()).isEqualTo(9);
		assertThat(event.userIds()).containsExactly(12L, 34L);
		assertThat(event.other(12)).isEqualTo(34);
		assertThat(event.other(34)).isEqualTo(12);
		assertThat(event.occurredAt()).isEqualTo(Instant.parse("2026-12-02T10:00:00.120Z"));
		assertThat(event.removedBy()).isNull();
	}

	@Test
	void aTypeAddedLaterNeedsOnlyTheCommonFields() {
		MatchEvent event = MatchEvent.parse("""
				{"event_id":"%s","event_type":"MATCH_PAUSED","occurred_at":"2026-12-02T10:00:00Z"}
				""".formatted(UUID.randomUUID()), this.json);
		assertThat(event.eventType()).isEqualTo("MATCH_PAUSED");
		assertThat(event.userIds()).isEmpty();
	}

	@Test
	void whatCannotBeReadIsMalformed() {
		String id = UUID.randomUUID().toString();
		for (String value : List.of("", "{", "[]", "{\"event_type\":\"MATCH_CREATED\"}",
				"{\"event_id\":\"not-a-uuid\",\"event_type\":\"MATCH_CREATED\",\"occurred_at\":\"2026-12-02T10:00:00Z\"}",
				"{\"event_id\":\"" + id + "\",\"event_type\":\"MATCH_CREATED\",\"occurred_at\":\"yesterday\"}",
				"{\"event_id\":\"" + id
						+ "\",\"event_type\":\"MATCH_CREATED\",\"occurred_at\":\"2026-12-02T10:00:00Z\",\"match_id\":1,\"user_ids\":[1]}",
				"{\"event_id\":\"" + id
						+ "\",\"event_type\":\"MATCH_REMOVED\",\"occurred_at\":\"2026-12-02T10:00:00Z\",\"match_id\":1,\"user_ids\":[1,2]}")) {
			assertThatExceptionOfType(MalformedEvent.class).as(value)
				.isThrownBy(() -> MatchEvent.parse(value, this.json));
		}
		assertThatExceptionOfType(MalformedEvent.class).isThrownBy(() -> MatchEvent.parse(null, this.json));
	}

}
