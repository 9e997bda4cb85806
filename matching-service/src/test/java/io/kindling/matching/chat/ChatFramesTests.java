package io.kindling.matching.chat;

import java.time.Instant;
import java.util.List;

import io.kindling.matching.chat.ChatFrames.BadFrame;
import io.kindling.matching.chat.ChatFrames.Outgoing;
import io.kindling.redis.StreamEntryId;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** A room socket's frames, written and read as JSON text. */
class ChatFramesTests {

	// as strict as the services' own mapper about what follows a value
	private final ChatFrames frames = new ChatFrames(JsonMapper.builder()
		.propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
		.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
		.build());

	private final Instant at = Instant.parse("2026-12-05T10:00:00.123Z");

	@Test
	void theServersFramesAreTheDocumentedJson() {
		assertThat(this.frames.welcome("B", List.of("A", "B", "C")))
			.isEqualTo("{\"type\":\"welcome\",\"you\":\"B\",\"members\":[\"A\",\"B\",\"C\"]}");
		ChatEntry message = new ChatEntry(StreamEntryId.of("1767225600000-0"), ChatEntry.Kind.MESSAGE, "A",
				"hi \"there\"\n\uD83D\uDD25", "c-1", this.at);
		assertThat(this.frames.entry(message, "B")).isEqualTo(
				"{\"type\":\"message\",\"id\":\"1767225600000-0\",\"from\":\"A\",\"text\":\"hi \\\"there\\\"\\n\uD83D\uDD25\","
						+ "\"sent_at\":\"2026-12-05T10:00:00.123Z\"}");
		assertThat(this.frames
			.entry(new ChatEntry(StreamEntryId.of("5-1"), ChatEntry.Kind.JOINED, "C", null, null, this.at), "A"))
			.isEqualTo("{\"type\":\"joined\",\"id\":\"5-1\",\"member\":\"C\"}");
		assertThat(this.frames
			.entry(new ChatEntry(StreamEntryId.of("6-0"), ChatEntry.Kind.LEFT, "B", null, null, this.at), "A"))
			.isEqualTo("{\"type\":\"left\",\"id\":\"6-0\",\"member\":\"B\"}");
		assertThat(this.frames.error(429, "Too many requests", "slow down", "c-9"))
			.isEqualTo("{\"type\":\"error\",\"status\":429,\"title\":\"Too many requests\",\"detail\":\"slow down\","
					+ "\"client_message_id\":\"c-9\"}");
		assertThat(this.frames.error(400, "Unreadable request body", "not JSON", null))
			.doesNotContain("client_message_id");
	}

	@Test
	void onlyTheSendersOwnCopyOfAMessageCarriesItsClientMessageId() {
		ChatEntry message = new ChatEntry(StreamEntryId.of("7-0"), ChatEntry.Kind.MESSAGE, "A", "hello", "mine",
				this.at);
		assertThat(this.frames.entry(message, "A")).contains("\"client_message_id\":\"mine\"");
		assertThat(this.frames.entry(message, "B")).doesNotContain("mine");
	}

	@Test
	void aClientsMessageIsRead() {
		assertThat(this.frames
			.read("{\"type\":\"message\",\"text\":\"hi\\nyou \uD83D\uDD25\",\"client_message_id\":\"x1\"}"))
			.isEqualTo(new Outgoing("hi\nyou \uD83D\uDD25", "x1"));
		assertThat(this.frames
			.read("{\"client_message_id\":\"x2\",\"text\":\"" + "a".repeat(1000)
					+ "\",\"type\":\"message\",\"later\":1}")
			.text()).hasSize(1000);
	}

	@Test
	void whatIsNotAWellFormedMessageIsRefusedWithItsReasonAndTheIdItNamed() {
		assertBad("not json", BadFrame.Kind.UNREADABLE, null);
		assertBad("[1,2]", BadFrame.Kind.UNREADABLE, null);
		assertBad("{\"type\":\"message\"} trailing", BadFrame.Kind.UNREADABLE, null);
		assertBad("{\"type\":\"typing\",\"client_message_id\":\"t1\"}", BadFrame.Kind.NOT_A_MESSAGE, "t1");
		assertBad("{\"text\":\"hi\",\"client_message_id\":\"t2\"}", BadFrame.Kind.NOT_A_MESSAGE, "t2");
		assertBad("{\"type\":\"message\",\"text\":\"hi\"}", BadFrame.Kind.BAD_MESSAGE, null);
		assertBad("{\"type\":\"message\",\"text\":\"hi\",\"client_message_id\":\"has space\"}",
				BadFrame.Kind.BAD_MESSAGE, null);
		assertBad("{\"type\":\"message\",\"client_message_id\":\"t3\"}", BadFrame.Kind.BAD_MESSAGE, "t3");
		assertBad("{\"type\":\"message\",\"text\":7,\"client_message_id\":\"t4\"}", BadFrame.Kind.BAD_MESSAGE, "t4");
		assertBad("{\"type\":\"message\",\"text\":\"" + "a".repeat(1001) + "\",\"client_message_id\":\"t5\"}",
				BadFrame.Kind.BAD_MESSAGE, "t5");
		assertBad("{\"type\":\"message\",\"text\":\"\",\"client_message_id\":\"t6\"}", BadFrame.Kind.BAD_MESSAGE, "t6");
		assertBad("{\"type\":\"message\",\"text\":\"bell\\u0007\",\"client_message_id\":\"t7\"}",
				BadFrame.Kind.BAD_MESSAGE, "t7");
		assertBad("{\"type\":\"message\",\"text\":\"\\ud800\",\"client_message_id\":\"t8\"}", BadFrame.Kind.BAD_MESSAGE,
				"t8");
	}

	private void assertBad(String payload, BadFrame.Kind kind, String clientMessageId) {
		assertThatExceptionOfType(BadFrame.class).as(payload)
			.isThrownBy(() -> this.frames.read(payload))
			.satisfies((bad) -> {
				assertThat(bad.kind()).isEqualTo(kind);
				assertThat(bad.clientMessageId()).isEqualTo(clientMessageId);
				assertThat(bad.getMessage()).isNotBlank();
			});
	}

}
