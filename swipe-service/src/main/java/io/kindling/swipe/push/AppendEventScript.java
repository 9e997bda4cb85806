package io.kindling.swipe.push;

import java.util.ArrayList;
import java.util.List;

import io.kindling.redis.LuaScript;
import io.kindling.redis.ScriptCalls;
import io.kindling.redis.StreamEntryId;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * {@code scripts/append_event.lua}: appends an event to a user's log, trimmed to the
 * retained count and expiring after the retention.
 */
@Component
class AppendEventScript {

	@SuppressWarnings("rawtypes")
	private final LuaScript<List> script = LuaScript.load("append_event", List.class);

	private final ScriptCalls calls;

	private final EventsProperties properties;

	AppendEventScript(StringRedisTemplate redis, EventsProperties properties) {
		this.calls = new ScriptCalls(redis);
		this.properties = properties;
	}

	/**
	 * Whether {@link #appendAll} sends all its events in one round trip (one Redis, or
	 * the Sentinels' primary), not one by one (a cluster).
	 */
	boolean inOneRoundTrip() {
		return this.calls.pipelined();
	}

	/**
	 * Appends each event to its recipient's log, in order.
	 * @param data each event's data, as JSON
	 * @return where each event stands in its log
	 */
	List<Appended> appendAll(List<UserEvent> events, List<String> data) {
		List<ScriptCalls.Call> calls = new ArrayList<>(events.size());
		for (int i = 0; i < events.size(); i++) {
			UserEvent event = events.get(i);
			calls.add(new ScriptCalls.Call(List.of(key(event.recipient())),
					List.of(event.type(), data.get(i), String.valueOf(this.properties.retained()),
							String.valueOf(this.properties.retention().toMillis()))));
		}
		return this.calls.lists(this.script, calls)
			.stream()
			.map((answer) -> new Appended(StreamEntryId.of(answer.get(0)), StreamEntryId.of(answer.get(1))))
			.toList();
	}

	/** A user's event log (a Redis stream), in the user's own slot. */
	static String key(long userId) {
		return "user_events:{" + userId + "}";
	}

	/** Where the new event stands: its id and the id of the event before it. */
	record Appended(StreamEntryId previous, StreamEntryId id) {

	}

}
