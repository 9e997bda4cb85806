package io.kindling.infra.http;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The parser a stream's own reader feeds line by line: each event whole, and nothing of
 * one carried into the next.
 */
class ServerSentEventTests {

	@Test
	void eachBlankLineEndsOneEventAndTheNextStartsAfresh() {
		List<ServerSentEvent> events = parse(": connected", "", "id: 7", "event: match_created", "data: {\"a\":1}",
				"data: {\"b\":2}", "", "data:plain", "", "", "id: 9", "retry: 3000", "event: match_removed", "data",
				"");

		assertThat(events).containsExactly(new ServerSentEvent("7", "match_created", "{\"a\":1}\n{\"b\":2}"),
				new ServerSentEvent(null, "message", "plain"), new ServerSentEvent("9", "match_removed", ""));
	}

	@Test
	void anUnfinishedEventIsNotReturned() {
		ServerSentEvent.Parser parser = new ServerSentEvent.Parser();

		assertThat(parser.accept("id: 1")).isNull();
		assertThat(parser.accept("data: half")).isNull();
		assertThat(parser.accept(": a comment does not end it")).isNull();
		assertThat(parser.accept("")).isEqualTo(new ServerSentEvent("1", "message", "half"));
	}

	private static List<ServerSentEvent> parse(String... lines) {
		ServerSentEvent.Parser parser = new ServerSentEvent.Parser();
		List<ServerSentEvent> events = new ArrayList<>();
		for (String line : lines) {
			ServerSentEvent event = parser.accept(line);
			if (event != null) {
				events.add(event);
			}
		}
		return events;
	}

}
