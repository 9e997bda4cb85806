package io.kindling.matching.queue;

import java.time.Instant;
import java.util.List;

import io.kindling.redis.LuaScript;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/** {@code scripts/enqueue.lua}: joins a queue unless already waiting or in a room. */
@Component
public class EnqueueScript {

	private final LuaScript<List> script = LuaScript.load("enqueue", List.class);

	private final StringRedisTemplate redis;

	EnqueueScript(StringRedisTemplate redis) {
		this.redis = redis;
	}

	/**
	 * @return false when the token is already waiting somewhere or in a room
	 */
	public boolean enqueue(String token, MatchQueue queue, Instant now) {
		List<?> result = this.script.run(this.redis,
				List.of(queue.key(), RedisKeys.waiting(token), RedisKeys.room(token), RedisKeys.ACTIVE_QUEUES), token,
				String.valueOf(now.toEpochMilli()), String.valueOf(queue.topicId()), String.valueOf(queue.size()));
		return "1".equals(String.valueOf(result.get(0)));
	}

}
