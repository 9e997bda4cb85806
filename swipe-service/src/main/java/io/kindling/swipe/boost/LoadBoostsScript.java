package io.kindling.swipe.boost;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.kindling.redis.LuaScript;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * {@code scripts/load_boosts.lua}: puts a cell's active boosts, as the {@code boosts}
 * table has them, into its set, marks the cell loaded and reads it.
 */
@Component
class LoadBoostsScript {

	@SuppressWarnings("rawtypes")
	private final LuaScript<List> script = LuaScript.load("load_boosts", List.class);

	private final StringRedisTemplate redis;

	LoadBoostsScript(StringRedisTemplate redis) {
		this.redis = redis;
	}

	/**
	 * @return the users whose boost runs
	 */
	List<Long> load(String cell, List<BoostStore.CellBoost> boosts, Instant now, Duration trusted) {
		List<String> args = new ArrayList<>(2 + 2 * boosts.size());
		args.add(String.valueOf(now.toEpochMilli()));
		args.add(String.valueOf(trusted.toMillis()));
		for (BoostStore.CellBoost boost : boosts) {
			args.add(String.valueOf(boost.userId()));
			args.add(String.valueOf(boost.expiresAt().toEpochMilli()));
		}
		return Boosts.ids(this.script.run(this.redis, Boosts.keys(cell), args.toArray(String[]::new)));
	}

}
