package io.kindling.swipe.deck;

import java.time.Duration;

import io.kindling.redis.LuaScript;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * {@code scripts/discard_deck.lua}: drops the deck and moves its generation on, so a
 * refill still running does not bring it back.
 */
@Component
class DiscardDeckScript {

	private final LuaScript<Long> script = LuaScript.load("discard_deck", Long.class);

	private final StringRedisTemplate redis;

	DiscardDeckScript(StringRedisTemplate redis) {
		this.redis = redis;
	}

	void discard(long userId, Duration ttl) {
		this.script.run(this.redis, DeckStore.keys(userId), String.valueOf(ttl.toMillis()));
	}

}
