package io.kindling.swipe.deck;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.kindling.redis.LuaScript;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * {@code scripts/append_deck.lua}: appends a deck assembled in the background unless the
 * deck was replaced or discarded since, and ends the refill.
 */
@Component
class AppendDeckScript {

	private final LuaScript<Long> script = LuaScript.load("append_deck", Long.class);

	private final StringRedisTemplate redis;

	AppendDeckScript(StringRedisTemplate redis) {
		this.redis = redis;
	}

	/**
	 * @param cards the cards (JSON) to append
	 * @return whether they were appended
	 */
	boolean append(long userId, long generation, List<String> cards, Duration ttl) {
		List<String> args = new ArrayList<>(cards.size() + 2);
		args.add(String.valueOf(generation));
		args.add(String.valueOf(ttl.toMillis()));
		args.addAll(cards);
		List<String> keys = new ArrayList<>(DeckStore.keys(userId));
		keys.add(DeckStore.refillKey(userId));
		return Long.valueOf(1).equals(this.script.run(this.redis, keys, args.toArray(String[]::new)));
	}

}
