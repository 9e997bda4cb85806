package io.kindling.swipe.superlike;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.kindling.redis.LuaScript;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * {@code scripts/load_super_likes.lua}: puts a user's active super likes, as MySQL has
 * them, into the set, marks it loaded and reads it.
 */
@Component
class LoadSuperLikesScript {

	@SuppressWarnings("rawtypes")
	private final LuaScript<List> script = LuaScript.load("load_super_likes", List.class);

	private final StringRedisTemplate redis;

	LoadSuperLikesScript(StringRedisTemplate redis) {
		this.redis = redis;
	}

	/**
	 * @param superLikes every active super like to the user
	 * @param trusted how long the load stands before the next one
	 * @return the active senders, soonest expiry first, at most {@code limit}
	 */
	List<Long> load(long userId, List<SuperLikes.SuperLike> superLikes, Instant now, int limit, Duration trusted) {
		List<String> args = new ArrayList<>(3 + 2 * superLikes.size());
		args.add(String.valueOf(now.toEpochMilli()));
		args.add(String.valueOf(limit));
		args.add(String.valueOf(trusted.toMillis()));
		for (SuperLikes.SuperLike superLike : superLikes) {
			args.add(String.valueOf(superLike.senderId()));
			args.add(String.valueOf(superLike.expiresAt().toEpochMilli()));
		}
		return ActiveSuperLikesScript
			.ids(this.script.run(this.redis, SuperLikes.keys(userId), args.toArray(String[]::new)));
	}

}
