package io.kindling.swipe.profile;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.kindling.redis.LuaScript;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * {@code scripts/location_changes.lua} on {@code location_changes:{<userId>}}: counts a
 * change of location against the limit per hour, or says how long until the next one is
 * allowed. In Redis, one key per user, so every instance counts the same changes; a
 * flushed Redis forgets the last hour's, which gives a user at most one hour's changes
 * more.
 */
@Component
class LocationChangeScript {

	static final Duration WINDOW = Duration.ofHours(1);

	private final LuaScript<Long> script = LuaScript.load("location_changes", Long.class);

	private final StringRedisTemplate redis;

	LocationChangeScript(StringRedisTemplate redis) {
		this.redis = redis;
	}

	/**
	 * @param counted whether the change was counted (else the limit is reached)
	 * @param retryAfter when not counted: until the oldest change of the hour leaves it
	 */
	record Taken(boolean counted, Duration retryAfter) {

	}

	Taken take(long userId, Instant now, int perHour) {
		Long wait = this.script.run(this.redis, List.of(key(userId)), String.valueOf(now.toEpochMilli()),
				String.valueOf(WINDOW.toMillis()), String.valueOf(perHour), UUID.randomUUID().toString());
		if (wait == null) {
			throw new IllegalStateException("location_changes script returned nothing");
		}
		return new Taken(wait == 0, Duration.ofMillis(wait));
	}

	static String key(long userId) {
		return "location_changes:{" + userId + "}";
	}

}
