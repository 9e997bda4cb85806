package io.kindling.matching.push;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

import io.kindling.matching.join.MatchingStatus;
import io.kindling.matching.room.RoomFormed;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

class MatchedMessageTests {

	// as the service configures it (spring.jackson.property-naming-strategy), with
	// properties sorted, which would put "status" before "tokens" without the explicit
	// order
	private final JsonMapper json = JsonMapper.builder()
		.propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
		.configure(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY, true)
		.build();

	@Test
	void aPublishedMessageOpensWithItsTokens() {
		RoomFormed room = new RoomFormed("room-1", 7, 2, 1, Instant.parse("2026-12-03T10:00:00Z"),
				List.of("token-a", "token-b"));
		byte[] body = this.json.writeValueAsBytes(new MatchedMessage(room.tokens(), MatchingStatus.matched(room)));

		assertThat(new String(body, StandardCharsets.UTF_8)).startsWith("{\"tokens\":[");
		assertThat(MatchedMessage.leadingTokens(this.json, body)).containsExactly("token-a", "token-b");
	}

	@Test
	void aMessageThatDoesNotOpenWithItsTokensIsLeftToTheFullRead() {
		assertThat(leadingTokens("{\"status\":{\"status\":\"matched\"},\"tokens\":[\"token-a\"]}")).isNull();
		assertThat(leadingTokens("{\"tokens\":[\"token-a\", 2]}")).isNull();
		assertThat(leadingTokens("{\"tokens\":\"token-a\"}")).isNull();
		assertThat(leadingTokens("[\"token-a\"]")).isNull();
	}

	@Test
	void noTokensIsAnEmptyList() {
		assertThat(leadingTokens("{\"tokens\":[],\"status\":{}}")).isEmpty();
	}

	private List<String> leadingTokens(String body) {
		return MatchedMessage.leadingTokens(this.json, body.getBytes(StandardCharsets.UTF_8));
	}

}
