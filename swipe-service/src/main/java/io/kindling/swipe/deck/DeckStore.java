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

	@SuppressWarnings("rawtypes")
	private static final LuaScript<List> TAKE = LuaScript.load("take_deck", List.class);

	private static final LuaScript<Long> APPEND = LuaScript.load("append_deck", Long.class);

	private static final LuaScript<Long> DISCARD = LuaScript.load("discard_deck", Long.class);

	/** A refill that died is forgotten after this, so the next page can start another. */
	private static final Duration REFILL_LEASE = Duration.ofSeconds(30);

	private final StringRedisTemplate redis;

	private final JsonMapper json;

	DeckStore(StringRedisTemplate redis, JsonMapper json) {
		this.redis = redis;
		this.json = json;
	}

	static String key(long userId) {
		return "deck:{" + userId + "}";
	}

	private static List<String> keys(long userId) {
		return List.of(key(userId), "deck-gen:{" + userId + "}");
	}

	/**
	 * The next {@code count} cards, with how many are left after them and the deck's
	 * generation (for a refill).
	 */
	Taken take(long userId, int count) {
		List<?> reply = TAKE.run(this.redis, keys(userId), String.valueOf(count));
		List<Card> cards = new ArrayList<>();
		for (Object card : reply.subList(2, reply.size())) {
			cards.add(this.json.readValue(card.toString(), Card.class));
		}
		return new Taken(cards, ((Number) reply.get(0)).longValue(), ((Number) reply.get(1)).longValue());
	}

	record Taken(List<Card> cards, long left, long generation) {

	}

	/** The user ids of the cards still in the deck, next first. */
	List<Long> remainingIds(long userId) {
		List<String> cards = this.redis.opsForList().range(key(userId), 0, -1);
		List<Long> ids = new ArrayList<>();
		if (cards != null) {
			for (String card : cards) {
				ids.add(this.json.readValue(card, Card.class).userId());
			}
		}
		return ids;
	}

	/**
	 * Claims the user's background refill: true for one caller until it appends (or the
	 * lease runs out).
	 */
	boolean claimRefill(long userId) {
		return Boolean.TRUE.equals(this.redis.opsForValue().setIfAbsent(refillKey(userId), "1", REFILL_LEASE));
	}

	/**
	 * Appends cards assembled in the background and ends the refill; dropped when the
	 * deck was replaced or discarded since {@code generation}.
	 */
	boolean append(long userId, long generation, List<Card> cards, Duration ttl) {
		if (cards.isEmpty()) {
			this.redis.delete(refillKey(userId));
			return false;
		}
		List<String> args = new ArrayList<>(cards.size() + 2);
		args.add(String.valueOf(generation));
		args.add(String.valueOf(ttl.toMillis()));
		for (Card card : cards) {
			args.add(this.json.writeValueAsString(card));
		}
		List<String> keys = new ArrayList<>(keys(userId));
		keys.add(refillKey(userId));
		return Long.valueOf(1).equals(APPEND.run(this.redis, keys, args.toArray(String[]::new)));
	}

	private static String refillKey(long userId) {
		return "deck-refill:{" + userId + "}";
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
		List<?> reply = STORE.run(this.redis, keys(userId), args.toArray(String[]::new));
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

	void discard(long userId, Duration ttl) {
		DISCARD.run(this.redis, keys(userId), String.valueOf(ttl.toMillis()));
	}

}
