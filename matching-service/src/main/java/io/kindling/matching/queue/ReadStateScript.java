package io.kindling.matching.queue;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.kindling.redis.LuaScript;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/** {@code scripts/read_state.lua}: a token's state in one atomic read. */
@Component
public class ReadStateScript {

	private final LuaScript<List> script = LuaScript.load("read_state", List.class);

	private final StringRedisTemplate redis;

	ReadStateScript(StringRedisTemplate redis) {
		this.redis = redis;
	}

	public TokenState read(String token) {
		List<?> result = this.script.run(this.redis, List.of(RedisKeys.room(token), RedisKeys.waiting(token)));
		String kind = String.valueOf(result.get(0));
		Map<String, String> fields = new HashMap<>();
		for (int i = 1; i + 1 < result.size(); i += 2) {
			fields.put(String.valueOf(result.get(i)), String.valueOf(result.get(i + 1)));
		}
		return switch (kind) {
			case "room" -> room(fields);
			case "waiting" -> new TokenState.Waiting(queue(fields), millis(fields.get("since")));
			default -> new TokenState.Idle();
		};
	}

	private static TokenState room(Map<String, String> fields) {
		String conversationId = fields.get("conversation_id");
		if (conversationId == null) {
			return new TokenState.Forming(queue(fields), millis(fields.get("since")), fields.get("room_id"));
		}
		return new TokenState.Matched(fields.get("room_id"), Long.parseLong(conversationId),
				Integer.parseInt(fields.get("room_type")), Long.parseLong(fields.get("topic_id")),
				millis(fields.get("matched_at")));
	}

	private static MatchQueue queue(Map<String, String> fields) {
		return new MatchQueue(Long.parseLong(fields.get("topic_id")), Integer.parseInt(fields.get("size")));
	}

	private static Instant millis(String value) {
		return Instant.ofEpochMilli(Long.parseLong(value));
	}

}
