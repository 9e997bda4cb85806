package io.kindling.swipe.boost;

import java.time.Instant;
import java.util.List;

import io.kindling.redis.LuaScript;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * {@code scripts/active_boosts.lua}: the active boosted users of a cell, expired boosts
 * removed first, and whether the cell was loaded from MySQL lately.
 */
@Component
class ActiveBoostsScript {

	@SuppressWarnings("rawtypes")
	private final LuaScript<List> script = LuaScript.load("active_boosts", List.class);

	private final StringRedisTemplate redis;

	ActiveBoostsScript(StringRedisTemplate redis) {
		this.redis = redis;
	}

	Active active(String cell, Instant now) {
		List<?> reply = this.script.run(this.redis, Boosts.keys(cell), String.valueOf(now.toEpochMilli()));
		return new Active(((Number) reply.get(0)).intValue() == 1, Boosts.ids(reply.subList(1, reply.size())));
	}

	/**
	 * @param loaded the cell's set was loaded from MySQL lately (else it is loaded now)
	 * @param userIds the users whose boost runs
	 */
	record Active(boolean loaded, List<Long> userIds) {

	}

}
