package io.kindling.swipe.superlike;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.kindling.redis.LuaScript;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * {@code scripts/active_super_likes.lua}: the active super likers of a user, expired ones
 * removed first.
 */
@Component
class ActiveSuperLikesScript {

	@SuppressWarnings("rawtypes")
	private final LuaScript<List> script = LuaScript.load("active_super_likes", List.class);

	private final StringRedisTemplate redis;

	ActiveSuperLikesScript(StringRedisTemplate redis) {
		this.redis = redis;
	}

	/** The senders, soonest expiry first, at most {@code limit}. */
	List<Long> active(long userId, Instant now, int limit) {
		List<?> senders = this.script.run(this.redis, List.of(SuperLikes.key(userId)),
				String.valueOf(now.toEpochMilli()), String.valueOf(limit));
		List<Long> ids = new ArrayList<>();
		if (senders != null) {
			for (Object sender : senders) {
				ids.add(Long.parseLong(sender.toString()));
			}
		}
		return ids;
	}

}
