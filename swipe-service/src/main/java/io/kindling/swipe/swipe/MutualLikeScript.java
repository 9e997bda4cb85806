package io.kindling.swipe.swipe;

import java.util.List;

import io.kindling.redis.LuaScript;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * {@code scripts/mutual_like.lua} on {@code match_pair:{min:max}}: Lua rather than
 * WATCH/MULTI because the check of the other side and the record of this side must be one
 * atomic step, without a retry loop under contention.
 */
@Component
class MutualLikeScript {

	/** What the script found. */
	enum Outcome {

		/** Recorded, no like from the other side in Redis (MySQL confirms). */
		RECORDED,
		/** The other side had liked: a mutual match. */
		MUTUAL,
		/** This request was recorded before (a retry); nothing changed. */
		ALREADY_RECORDED

	}

	private final LuaScript<Long> script = LuaScript.load("mutual_like", Long.class);

	private final StringRedisTemplate redis;

	MutualLikeScript(StringRedisTemplate redis) {
		this.redis = redis;
	}

	/** Records that {@code userId} liked {@code targetUserId} under this request id. */
	Outcome recordLike(long userId, long targetUserId, String requestId) {
		Long result = this.script.run(this.redis, List.of(pairKey(userId, targetUserId)),
				likeField(userId, targetUserId), requestId);
		if (result == null) {
			throw new IllegalStateException("mutual_like script returned nothing");
		}
		return switch (result.intValue()) {
			case 0 -> Outcome.RECORDED;
			case 1 -> Outcome.MUTUAL;
			case 2 -> Outcome.ALREADY_RECORDED;
			default -> throw new IllegalStateException("mutual_like script answered " + result);
		};
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
