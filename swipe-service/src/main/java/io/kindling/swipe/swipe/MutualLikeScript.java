package io.kindling.swipe.swipe;

import java.util.List;

import io.kindling.redis.LuaScript;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * The mutual-like Lua script on {@code match_pair:{min:max}}: Lua rather than WATCH/MULTI
 * because the check of the other side and the record of this side must be one atomic
 * step, without a retry loop under contention.
 */
@Component
class MutualLikeScript {

	static final long ALREADY_RECORDED = 2;

	static final long MUTUAL = 1;

	static final long RECORDED = 0;

	private final LuaScript<Long> script = LuaScript.load("mutual-like", Long.class);

	private final StringRedisTemplate redis;

	MutualLikeScript(StringRedisTemplate redis) {
		this.redis = redis;
	}

	/** Records that {@code userId} liked {@code targetUserId} under this request id. */
	long recordLike(long userId, long targetUserId, String requestId) {
		Long result = this.script.run(this.redis, List.of(pairKey(userId, targetUserId)),
				likeField(userId, targetUserId), requestId);
		if (result == null) {
			throw new IllegalStateException("mutual-like script returned nothing");
		}
		return result;
	}

	/**
	 * Takes back a like (rewind), so the pair no longer reads as liked from this side.
	 */
	void forgetLike(long userId, long targetUserId) {
		this.redis.opsForHash().delete(pairKey(userId, targetUserId), likeField(userId, targetUserId));
	}

	static String pairKey(long userA, long userB) {
		return "match_pair:{" + Math.min(userA, userB) + ":" + Math.max(userA, userB) + "}";
	}

	/** {@code right_a} means the smaller id liked the larger one. */
	static String likeField(long userId, long targetUserId) {
		return (userId < targetUserId) ? "right_a" : "right_b";
	}

}
