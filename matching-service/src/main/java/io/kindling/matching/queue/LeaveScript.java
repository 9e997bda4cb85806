package io.kindling.matching.queue;

import java.util.List;

import io.kindling.redis.LuaScript;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/** {@code scripts/leave.lua}: leaves the queue or the room. */
@Component
public class LeaveScript {

	private final LuaScript<String> script = LuaScript.load("leave", String.class);

	private final StringRedisTemplate redis;

	LeaveScript(StringRedisTemplate redis) {
		this.redis = redis;
	}

	/**
	 * @return what was left: {@code waiting}, {@code room} or {@code idle}
	 */
	public String leave(String token) {
		return this.script.run(this.redis, List.of(RedisKeys.waiting(token), RedisKeys.room(token)), token);
	}

}
