package io.kindling.swipe.deck;

import java.util.List;

import io.kindling.redis.LuaScript;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/** {@code scripts/take_deck.lua}: the next page of a deck and what is left of it. */
@Component
class TakeDeckScript {

	@SuppressWarnings("rawtypes")
	private final LuaScript<List> script = LuaScript.load("take_deck", List.class);

	private final StringRedisTemplate redis;

	TakeDeckScript(StringRedisTemplate redis) {
		this.redis = redis;
	}

	Taken take(long userId, int count) {
		List<?> reply = this.script.run(this.redis, DeckStore.keys(userId), String.valueOf(count));
		return new Taken(reply.subList(2, reply.size()).stream().map(String::valueOf).toList(),
				((Number) reply.get(0)).longValue(), ((Number) reply.get(1)).longValue());
	}

	/**
	 * @param cards the page's cards (JSON), next first
	 * @param left cards still in the deck after this page
	 * @param generation the deck's generation, for a refill
	 */
	record Taken(List<String> cards, long left, long generation) {

	}

}
