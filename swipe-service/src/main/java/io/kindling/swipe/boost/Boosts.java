package io.kindling.swipe.boost;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

import io.kindling.swipe.profile.Profile;
import io.kindling.swipe.profile.ProfileDirectory;
import io.kindling.swipe.profile.ProfileRefusals;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Boosts. The {@code boosts} table is their truth: a boost, the cooldown after it and its
 * views survive a lost Redis. {@code boosted_users:{<cell>}} (score = expiry ms) is where
 * decks find a cell's boosts fast; a cell not marked {@code boosts_loaded:{<cell>}} is
 * loaded from the table first, which a flushed or failed-over Redis, and every minute's
 * expiry of the mark, lead to.
 * <p>
 * A view is a boosted card served to a viewer (in a page), counted once per viewer and
 * boost; a card put into a deck that is never served costs nothing. Decks take the least
 * served boosts first, so a cell with more boosts than deck slots spreads the views
 * evenly.
 */
@Component
public class Boosts {

	private static final Logger log = LoggerFactory.getLogger(Boosts.class);

	/**
	 * How long a cell's set is trusted before it is loaded again: a boost whose Redis
	 * write failed (Redis away just then) shows within this.
	 */
	static final Duration LOAD_TRUSTED = Duration.ofMinutes(1);

	private final StringRedisTemplate redis;

	private final BoostStore store;

	private final ActiveBoostsScript activeScript;

	private final LoadBoostsScript loadScript;

	private final ProfileDirectory profiles;

	private final BoostProperties settings;

	private final TransactionTemplate transactions;

	private final Clock clock;

	Boosts(StringRedisTemplate redis, BoostStore store, ActiveBoostsScript activeScript, LoadBoostsScript loadScript,
			ProfileDirectory profiles, BoostProperties properties, TransactionTemplate transactions, Clock clock) {
		this.redis = redis;
		this.store = store;
		this.activeScript = activeScript;
		this.loadScript = loadScript;
		this.profiles = profiles;
		this.settings = properties;
		this.transactions = transactions;
		this.clock = clock;
	}

	/** The geohash prefix whose boosts a user at this geohash sees (and joins). */
	public String cellOf(String geohash) {
		return geohash.substring(0, Math.min(geohash.length(), this.settings.cellPrecision()));
	}

	/**
	 * Starts a boost unless one runs (no stacking) or the last began less than
	 * {@code boost.cooldown} ago: decided in MySQL under the user's profile row lock, so
	 * two at once make one, and a flushed Redis forgets no cooldown.
	 */
	Instant start(long userId) {
		Profile profile = this.profiles.find(userId).orElseThrow(() -> ProfileRefusals.noProfile("before boosting it"));
		Instant now = now();
		Instant expiresAt = now.plus(this.settings.duration());
		String cell = cellOf(profile.geohash());
		this.transactions.executeWithoutResult((tx) -> {
			this.store.lockUser(userId);
			this.store.latest(userId).ifPresent((last) -> {
				if (last.expiresAt().isAfter(now)) {
					throw BoostRefusals.BOOST_ACTIVE
						.refused("A boost is already active until " + last.expiresAt() + ".");
				}
				Instant next = last.startedAt().plus(this.settings.cooldown());
				if (next.isAfter(now)) {
					throw BoostRefusals.BOOST_COOLDOWN.refused("The next boost is possible at " + next + ".",
							Duration.between(now, next).truncatedTo(ChronoUnit.MILLIS));
				}
			});
			this.store.insert(userId, cell, now, expiresAt);
		});
		try {
			this.redis.opsForZSet().add(boostedKey(cell), String.valueOf(userId), expiresAt.toEpochMilli());
			// the cell's set lives as long as its newest boost
			this.redis.expire(boostedKey(cell), this.settings.duration());
		}
		catch (DataAccessException redisUnavailable) {
			// the boost is stored; the cell's next load (within LOAD_TRUSTED) shows it
			log.warn("boost of user {} stored, not yet in Redis", userId, redisUnavailable);
		}
		return expiresAt;
	}

	/** The user's running boost, with its views so far. */
	Optional<BoostStore.Boost> current(long userId) {
		Instant now = now();
		return this.store.latest(userId)
			.filter((boost) -> boost.expiresAt().isAfter(now) && !boost.startedAt().isAfter(now));
	}

	/** Active boosted users of the cell, expired boosts removed first. */
	public List<Long> active(String cell, Instant now) {
		ActiveBoostsScript.Active active = this.activeScript.active(cell, now);
		if (active.loaded()) {
			return active.userIds();
		}
		return this.loadScript.load(cell, this.store.runningIn(cell, now), now, LOAD_TRUSTED);
	}

	/**
	 * Fills the boost slots of a page being served to the viewer and counts their views,
	 * in one transaction that holds the candidates' boost rows (see {@link BoostPicks}):
	 * each slot takes the least served at this moment, so a deck assembled ahead, or two
	 * pages served at once, never rest on a count that has moved on.
	 * @param slots each slot's candidates, none of them on the page already
	 * @return per slot, the boosted person shown there; empty when none of its
	 * candidates' boosts runs any more
	 */
	public List<Optional<Long>> serve(long viewerId, List<List<Long>> slots, Instant now) {
		List<Long> candidates = slots.stream().flatMap(List::stream).distinct().sorted().toList();
		if (candidates.isEmpty()) {
			return slots.stream().map((slot) -> Optional.<Long>empty()).toList();
		}
		Instant at = now.truncatedTo(ChronoUnit.MICROS);
		return this.transactions.execute((tx) -> {
			BoostPicks.Picks picks = BoostPicks.choose(slots, this.store.lockRunning(viewerId, candidates, at),
					ThreadLocalRandom.current());
			picks.counted().forEach((standing) -> this.store.addView(standing.boostId(), viewerId, at));
			return picks.chosen();
		});
	}

	private Instant now() {
		return this.clock.instant().truncatedTo(ChronoUnit.MICROS);
	}

	static String boostedKey(String cell) {
		return "boosted_users:{" + cell + "}";
	}

	/** The cell's set and its loaded mark, in one hash slot: the keys of both scripts. */
	static List<String> keys(String cell) {
		return List.of(boostedKey(cell), "boosts_loaded:{" + cell + "}");
	}

	/** A script's reply of user ids. */
	static List<Long> ids(List<?> members) {
		List<Long> ids = new ArrayList<>();
		if (members != null) {
			for (Object member : members) {
				ids.add(Long.parseLong(member.toString()));
			}
		}
		return ids;
	}

}
