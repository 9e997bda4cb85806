package io.kindling.swipe.deck;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.kindling.redis.LuaScript;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * {@code scripts/store_deck.lua}: keeps a deck unless another request stored one
 * meanwhile, and takes its first page in the same step.
 */
@Component
class StoreDeckScript {

	@SuppressWarnings("rawtypes")
	private final LuaScript<List> script = LuaScript.load("store_deck", List.class);

	private final StringRedisTemplate redis;

	StoreDeckScript(StringRedisTemplate redis) {
		this.redis = redis;
	}

	/**
	 * @param cards the deck (JSON), next first
	 */
	Stored keepAndTake(long userId, List<String> cards, Duration ttl, int count) {
		List<String> args = new ArrayList<>(cards.size() + 2);
		args.add(String.valueOf(ttl.toMillis()));
		args.add(String.valueOf(count));
		args.addAll(cards);
		List<?> reply = this.script.run(this.redis, DeckStore.keys(userId), args.toArray(String[]::new));
		return new Stored(((Number) reply.get(0)).longValue() == 1,
				reply.subList(1, reply.size()).stream().map(String::valueOf).toList());
	}

	/**
	 * @param kept this deck was stored (no other deck was there)
	 * @param page the first page (JSON), of this deck or of the one already there
	 */
	record Stored(boolean kept, List<String> page) {

	}

}
