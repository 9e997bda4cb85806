package io.kindling.swipe.boost;

import java.time.Instant;
import java.util.List;

import io.kindling.redis.LuaScript;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * {@code scripts/active_boosts.lua}: the active boosted users of a cell, expired boosts
 * removed first.
 */
@Component
class ActiveBoostsScript {

	@SuppressWarnings("rawtypes")
	private final LuaScript<List> script = LuaScript.load("active_boosts", List.class);

	private final StringRedisTemplate redis;

	ActiveBoostsScript(StringRedisTemplate redis) {
		this.redis = redis;
	}

	List<Long> active(String cell, Instant now) {
		return Boosts
			.ids(this.script.run(this.redis, List.of(Boosts.boostedKey(cell)), String.valueOf(now.toEpochMilli())));
	}

}
