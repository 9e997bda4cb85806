package io.kindling.swipe.superlike;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.kindling.redis.LuaScript;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * {@code scripts/active_super_likes.lua}: the active super likers of a user, expired ones
 * removed first, and whether the set was loaded from MySQL since Redis last lost it.
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
	Active active(long userId, Instant now, int limit) {
		List<?> reply = this.script.run(this.redis, SuperLikes.keys(userId), String.valueOf(now.toEpochMilli()),
				String.valueOf(limit));
		return new Active(((Number) reply.get(0)).intValue() == 1, ids(reply.subList(1, reply.size())));
	}

	/**
	 * @param loaded the set holds every active super like (else it is loaded from MySQL)
	 * @param senders the senders, soonest expiry first
	 */
	record Active(boolean loaded, List<Long> senders) {

	}

	static List<Long> ids(List<?> senders) {
		List<Long> ids = new ArrayList<>(senders.size());
		for (Object sender : senders) {
			ids.add(Long.parseLong(sender.toString()));
		}
		return ids;
	}

}
