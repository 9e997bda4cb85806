package io.kindling.swipe.push;

import java.util.ArrayList;
import java.util.List;

import io.kindling.redis.LuaScript;
import io.kindling.redis.StreamEntryId;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/** {@code scripts/read_events.lua}: the events of a user's log after an id. */
@Component
class ReadEventsScript {

	@SuppressWarnings("rawtypes")
	private final LuaScript<List> script = LuaScript.load("read_events", List.class);

	private final StringRedisTemplate redis;

	ReadEventsScript(StringRedisTemplate redis) {
		this.redis = redis;
	}

	/**
	 * @param after the id last sent; null reads only where the log ends
	 */
	Missed after(long userId, @Nullable StreamEntryId after) {
		List<?> answer = this.script.run(this.redis, List.of(AppendEventScript.key(userId)),
				(after != null) ? after.toString() : "");
		List<LoggedEvent> events = new ArrayList<>((answer.size() - 1) / 3);
		for (int i = 1; i + 2 < answer.size(); i += 3) {
			events.add(new LoggedEvent(StreamEntryId.of((String) answer.get(i)), (String) answer.get(i + 1),
					(String) answer.get(i + 2)));
		}
		return new Missed(StreamEntryId.of((String) answer.get(0)), events);
	}

	/**
	 * @param last the log's last id ({@link StreamEntryId#NONE} when empty or gone)
	 * @param events what came after the id asked for, oldest first
	 */
	record Missed(StreamEntryId last, List<LoggedEvent> events) {

	}

	record LoggedEvent(StreamEntryId id, String type, String data) {

	}

}
