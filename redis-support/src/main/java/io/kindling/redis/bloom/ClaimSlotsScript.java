package io.kindling.redis.bloom;

import java.util.List;
import java.util.OptionalLong;

import io.kindling.redis.LuaScript;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * {@code scripts/bloom_claim_slots.lua}: claims positions in an owner's filter before its
 * items are added with RedisBloom's commands, so concurrent adds never fill a bucket past
 * its capacity.
 */
final class ClaimSlotsScript {

	private static final LuaScript<Long> SCRIPT = LuaScript.load("bloom_claim_slots", Long.class);

	private final StringRedisTemplate redis;

	ClaimSlotsScript(StringRedisTemplate redis) {
		this.redis = redis;
	}

	/**
	 * @return the first claimed position (the items take it and the ones after), or empty
	 * when the filter is not live
	 */
	OptionalLong claim(String countKey, int items) {
		Long end = SCRIPT.run(this.redis, List.of(countKey), String.valueOf(items));
		return (end == null || end < 0) ? OptionalLong.empty() : OptionalLong.of(end - items);
	}

}
