package io.kindling.matching.queue;

import java.util.List;
import java.util.Map;

import io.kindling.redis.LuaScript;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * Reads a token's claim (one key, so one atomic read), and takes an entry out of its
 * queue once the claim is gone.
 */
@Component
public class TokenClaims {

	private final LuaScript<Long> removeEntry = LuaScript.load("remove_entry", Long.class);

	private final StringRedisTemplate redis;

	TokenClaims(StringRedisTemplate redis) {
		this.redis = redis;
	}

	public TokenState read(String token) {
		Map<String, String> fields = this.redis.<String, String>opsForHash().entries(RedisKeys.claim(token));
		return TokenState.parse(fields);
	}

	/** Removes a join's entry from its queue; its claim must be gone first. */
	public void removeEntry(MatchQueue queue, QueueEntry entry) {
		this.removeEntry.run(this.redis, List.of(queue.key(), queue.entryPartnersKey()), entry.member());
	}

}
