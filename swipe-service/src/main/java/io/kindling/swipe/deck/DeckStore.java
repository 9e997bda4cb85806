package io.kindling.swipe.deck;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import tools.jackson.databind.JsonNode;
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

	/** A refill that died is forgotten after this, so the next page can start another. */
	private static final Duration REFILL_LEASE = Duration.ofSeconds(30);

	/** The field that tells a stored boost slot from a card. */
	private static final String SLOT = "boost_slot";

	private final StringRedisTemplate redis;

	private final JsonMapper json;

	private final TakeDeckScript takeScript;

	private final StoreDeckScript storeScript;

	private final AppendDeckScript appendScript;

	private final DiscardDeckScript discardScript;

	DeckStore(StringRedisTemplate redis, JsonMapper json, TakeDeckScript takeScript, StoreDeckScript storeScript,
			AppendDeckScript appendScript, DiscardDeckScript discardScript) {
		this.redis = redis;
		this.json = json;
		this.takeScript = takeScript;
		this.storeScript = storeScript;
		this.appendScript = appendScript;
		this.discardScript = discardScript;
	}

	static String key(long userId) {
		return "deck:{" + userId + "}";
	}

	/** The deck and its generation counter, the keys of every deck script. */
	static List<String> keys(long userId) {
		return List.of(key(userId), "deck-gen:{" + userId + "}");
	}

	/**
	 * The next {@code count} cards, with how many are left after them and the deck's
	 * generation (for a refill).
	 */
	Taken take(long userId, int count) {
		TakeDeckScript.Taken taken = this.takeScript.take(userId, count);
		return new Taken(read(taken.cards()), taken.left(), taken.generation());
	}

	record Taken(List<DeckEntry> entries, long left, long generation) {

	}

	/**
	 * The user ids of the cards still in the deck, next first (boost slots have none).
	 */
	List<Long> remainingIds(long userId) {
		List<String> entries = this.redis.opsForList().range(key(userId), 0, -1);
		List<Long> ids = new ArrayList<>();
		for (DeckEntry entry : read((entries != null) ? entries : List.of())) {
			if (entry.card() != null) {
				ids.add(entry.card().userId());
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
	boolean append(long userId, long generation, List<DeckEntry> cards, Duration ttl) {
		if (cards.isEmpty()) {
			this.redis.delete(refillKey(userId));
			return false;
		}
		return this.appendScript.append(userId, generation, write(cards), ttl);
	}

	static String refillKey(long userId) {
		return "deck-refill:{" + userId + "}";
	}

	/**
	 * Keeps the deck unless one appeared meanwhile (a concurrent request built it) and
	 * takes its first page in the same round trip.
	 */
	Page keepAndTake(long userId, List<DeckEntry> cards, Duration ttl, int count) {
		if (cards.isEmpty()) {
			return new Page(List.of(), true);
		}
		StoreDeckScript.Stored stored = this.storeScript.keepAndTake(userId, write(cards), ttl, count);
		return new Page(read(stored.page()), stored.kept());
	}

	/**
	 * @param fresh the cards come from the deck just assembled (not from an older one)
	 */
	record Page(List<DeckEntry> entries, boolean fresh) {

	}

	/**
	 * Drops a card from the rest of the deck: a person just served in a boost slot is not
	 * shown again further on as an ordinary card.
	 */
	void remove(long userId, Card card) {
		this.redis.opsForList().remove(key(userId), 0, this.json.writeValueAsString(card));
	}

	void discard(long userId, Duration ttl) {
		this.discardScript.discard(userId, ttl);
	}

	/** A card is stored as itself; a boost slot as {@code {"boost_slot": [cards]}}. */
	private List<DeckEntry> read(List<String> entries) {
		List<DeckEntry> read = new ArrayList<>(entries.size());
		for (String entry : entries) {
			JsonNode tree = this.json.readTree(entry);
			read.add(tree.has(SLOT) ? DeckEntry.slot(this.json.treeToValue(tree, StoredSlot.class).boostSlot())
					: DeckEntry.of(this.json.treeToValue(tree, Card.class)));
		}
		return read;
	}

	private List<String> write(List<DeckEntry> entries) {
		List<String> written = new ArrayList<>(entries.size());
		for (DeckEntry entry : entries) {
			written.add(this.json
				.writeValueAsString((entry.card() != null) ? entry.card() : new StoredSlot(entry.boostCandidates())));
		}
		return written;
	}

	/** How a boost slot is stored. */
	private record StoredSlot(List<Card> boostSlot) {

	}

}
