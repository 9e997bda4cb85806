package io.kindling.swipe.boost;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.kindling.redis.LuaScript;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * {@code scripts/start_boost.lua}: starts a boost unless one is active or the user is
 * inside the cooldown since the last one.
 */
@Component
class StartBoostScript {

	@SuppressWarnings("rawtypes")
	private final LuaScript<List> script = LuaScript.load("start_boost", List.class);

	private final StringRedisTemplate redis;

	StartBoostScript(StringRedisTemplate redis) {
		this.redis = redis;
	}

	Start start(long userId, Instant now, Duration duration, Duration cooldown) {
		List<?> answer = this.script.run(this.redis,
				List.of("boost:{" + userId + "}", "boost_cooldown:{" + userId + "}"),
				String.valueOf(now.toEpochMilli()), String.valueOf(duration.toMillis()),
				String.valueOf(cooldown.toMillis()));
		Instant at = Instant.ofEpochMilli(((Number) answer.get(1)).longValue());
		return switch (((Number) answer.get(0)).intValue()) {
			case 0 -> new Started(at);
			case 1 -> new AlreadyActive(at);
			case 2 -> new CoolingDown(at);
			default -> throw new IllegalStateException("start_boost script answered " + answer);
		};
	}

	sealed interface Start {

	}

	record Started(Instant until) implements Start {

	}

	/** No stacking: the boost that runs until then stays the only one. */
	record AlreadyActive(Instant until) implements Start {

	}

	record CoolingDown(Instant until) implements Start {

	}

}
