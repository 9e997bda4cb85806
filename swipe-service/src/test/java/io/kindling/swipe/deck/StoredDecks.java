package io.kindling.swipe.deck;

import java.time.Duration;

import org.springframework.data.redis.core.StringRedisTemplate;

import static org.awaitility.Awaitility.await;

/** A test's hand on a user's deck in Redis, by the keys the service itself uses. */
public final class StoredDecks {

	private StoredDecks() {
	}

	/**
	 * Drops the user's stored deck, so that the next page assembles a new one, once any
	 * refill of it has ended: a refill still running would append its cards to the
	 * emptied key.
	 */
	public static void forget(StringRedisTemplate redis, long userId, Duration refillTimeout) {
		awaitNoRefill(redis, userId, refillTimeout);
		redis.delete(DeckStore.key(userId));
	}

	/**
	 * How many times the user's deck was thrown away (a rewind, a super like received)
	 * while its generation was kept.
	 */
	public static long generation(StringRedisTemplate redis, long userId) {
		String generation = redis.opsForValue().get(DeckStore.keys(userId).get(1));
		return (generation != null) ? Long.parseLong(generation) : 0;
	}

	/** Waits until no background refill of the user's deck is running. */
	public static void awaitNoRefill(StringRedisTemplate redis, long userId, Duration timeout) {
		await().atMost(timeout).until(() -> !Boolean.TRUE.equals(redis.hasKey(DeckStore.refillKey(userId))));
	}

}
