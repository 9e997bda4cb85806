package io.kindling.swipe.deck;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.kindling.redis.LuaScript;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * The user's current deck, {@code deck:{<userId>}}: a Redis list of cards, next first,
 * with a TTL. Pages are taken with {@code LPOP count}, so two requests never get the same
 * card.
 */
@Component
class DeckStore {

	@SuppressWarnings("rawtypes")
	private static final LuaScript<List> STORE = LuaScript.load("store_deck", List.class);

	private final StringRedisTemplate redis;

	private final JsonMapper json;

	DeckStore(StringRedisTemplate redis, JsonMapper json) {
		this.redis = redis;
		this.json = json;
	}

	static String key(long userId) {
		return "deck:{" + userId + "}";
	}

	List<Card> take(long userId, int count) {
		List<String> popped = this.redis.opsForList().leftPop(key(userId), count);
		List<Card> cards = new ArrayList<>();
		if (popped != null) {
			for (String card : popped) {
				cards.add(this.json.readValue(card, Card.class));
			}
		}
		return cards;
	}

	/**
	 * Keeps the deck unless one appeared meanwhile (a concurrent request built it) and
	 * takes its first page in the same round trip.
	 */
	Page keepAndTake(long userId, List<Card> cards, Duration ttl, int count) {
		if (cards.isEmpty()) {
			return new Page(List.of(), true);
		}
		List<String> args = new ArrayList<>(cards.size() + 2);
		args.add(String.valueOf(ttl.toMillis()));
		args.add(String.valueOf(count));
		for (Card card : cards) {
			args.add(this.json.writeValueAsString(card));
		}
		List<?> reply = STORE.run(this.redis, List.of(key(userId)), args.toArray(String[]::new));
		List<Card> page = new ArrayList<>();
		for (Object card : reply.subList(1, reply.size())) {
			page.add(this.json.readValue(card.toString(), Card.class));
		}
		return new Page(page, ((Number) reply.get(0)).longValue() == 1);
	}

	/**
	 * @param fresh the cards come from the deck just assembled (not from an older one)
	 */
	record Page(List<Card> cards, boolean fresh) {

	}

	void discard(long userId) {
		this.redis.delete(key(userId));
	}

}
