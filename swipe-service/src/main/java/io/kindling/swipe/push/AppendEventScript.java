package io.kindling.swipe.push;

import java.util.List;

import io.kindling.redis.LuaScript;
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

	private final StringRedisTemplate redis;

	private final EventsProperties properties;

	AppendEventScript(StringRedisTemplate redis, EventsProperties properties) {
		this.redis = redis;
		this.properties = properties;
	}

	Appended append(long userId, String type, String data) {
		List<?> answer = this.script.run(this.redis, List.of(key(userId)), type, data,
				String.valueOf(this.properties.retained()), String.valueOf(this.properties.retention().toMillis()));
		return new Appended(StreamEntryId.of((String) answer.get(0)), StreamEntryId.of((String) answer.get(1)));
	}

	/** A user's event log (a Redis stream), in the user's own slot. */
	static String key(long userId) {
		return "user_events:{" + userId + "}";
	}

	/** Where the new event stands: its id and the id of the event before it. */
	record Appended(StreamEntryId previous, StreamEntryId id) {

	}

}
