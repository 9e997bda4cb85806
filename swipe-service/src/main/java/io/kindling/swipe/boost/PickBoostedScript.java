package io.kindling.swipe.boost;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.kindling.redis.LuaScript;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * {@code scripts/pick_boosted.lua}: the least-shown active boosted users for one deck,
 * their impressions counted in the same atomic step.
 */
@Component
class PickBoostedScript {

	@SuppressWarnings("rawtypes")
	private final LuaScript<List> script = LuaScript.load("pick_boosted", List.class);

	private final StringRedisTemplate redis;

	PickBoostedScript(StringRedisTemplate redis) {
		this.redis = redis;
	}

	/**
	 * @param eligible the boosted users this viewer may see, in random order (breaks ties
	 * fairly)
	 * @param impressionsTtl how long the impression counts live
	 */
	List<Long> pick(String cell, List<Long> eligible, int slots, Instant now, Duration impressionsTtl) {
		List<String> args = new ArrayList<>(eligible.size() + 3);
		args.add(String.valueOf(now.toEpochMilli()));
		args.add(String.valueOf(slots));
		args.add(String.valueOf(impressionsTtl.toMillis()));
		eligible.forEach((id) -> args.add(String.valueOf(id)));
		return Boosts.ids(this.script.run(this.redis, List.of(Boosts.boostedKey(cell), Boosts.impressionsKey(cell)),
				args.toArray(String[]::new)));
	}

}
