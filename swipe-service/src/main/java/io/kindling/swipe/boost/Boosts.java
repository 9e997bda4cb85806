package io.kindling.swipe.boost;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.kindling.swipe.profile.Profile;
import io.kindling.swipe.profile.ProfileRefused;
import io.kindling.swipe.profile.ProfileDirectory;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * Boosts: {@code boost:{<user>}} marks one as active for {@code boost.duration},
 * {@code boost_cooldown:{<user>}} allows the next one {@code boost.cooldown} after the
 * start, and {@code boosted_users:{<cell>}} (score = expiry ms) is where decks find them.
 * Impressions per boosted user ({@code boost_impressions:{<cell>}}) spread views evenly
 * when a cell has more boosts than deck slots.
 */
@Component
public class Boosts {

	private final StringRedisTemplate redis;

	private final StartBoostScript startScript;

	private final ActiveBoostsScript activeScript;

	private final PickBoostedScript pickScript;

	private final ProfileDirectory profiles;

	private final BoostProperties settings;

	private final Clock clock;

	Boosts(StringRedisTemplate redis, StartBoostScript startScript, ActiveBoostsScript activeScript,
			PickBoostedScript pickScript, ProfileDirectory profiles, BoostProperties properties, Clock clock) {
		this.redis = redis;
		this.startScript = startScript;
		this.activeScript = activeScript;
		this.pickScript = pickScript;
		this.profiles = profiles;
		this.settings = properties;
		this.clock = clock;
	}

	/** The geohash prefix whose boosts a user at this geohash sees (and joins). */
	public String cellOf(String geohash) {
		return geohash.substring(0, Math.min(geohash.length(), this.settings.cellPrecision()));
	}

	Instant start(long userId) {
		Profile profile = this.profiles.find(userId).orElseThrow(() -> ProfileRefused.noProfile("before boosting it"));
		Instant now = this.clock.instant();
		Instant at = switch (this.startScript.start(userId, now, this.settings.duration(), this.settings.cooldown())) {
			case StartBoostScript.Started started -> started.until();
			case StartBoostScript.AlreadyActive active -> throw new BoostActive(active.until());
			case StartBoostScript.CoolingDown cooling ->
				throw new BoostCooldown(cooling.until(), Duration.between(now, cooling.until()));
		};
		String cell = cellOf(profile.geohash());
		this.redis.opsForZSet().add(boostedKey(cell), String.valueOf(userId), at.toEpochMilli());
		// a new boost starts with no views, and the cell's set lives as long as its
		// newest boost
		this.redis.opsForZSet().remove(impressionsKey(cell), String.valueOf(userId));
		this.redis.expire(boostedKey(cell), this.settings.duration());
		return at;
	}

	/** Active boosted users of the cell, expired boosts removed first. */
	public List<Long> active(String cell, Instant now) {
		return this.activeScript.active(cell, now);
	}

	/**
	 * Picks up to {@code slots} of the eligible boosted users, the least shown first, and
	 * counts the impression.
	 */
	public List<Long> pickLeastShown(String cell, List<Long> eligible, int slots, Instant now) {
		if (slots <= 0 || eligible.isEmpty()) {
			return List.of();
		}
		return this.pickScript.pick(cell, eligible, slots, now, this.settings.duration());
	}

	/** How often each boosted user of the cell was put into a deck during its boost. */
	public List<Long> impressions(String cell, List<Long> userIds) {
		List<Long> counts = new ArrayList<>();
		for (Long userId : userIds) {
			Double score = this.redis.opsForZSet().score(impressionsKey(cell), String.valueOf(userId));
			counts.add((score != null) ? score.longValue() : 0L);
		}
		return counts;
	}

	static String boostedKey(String cell) {
		return "boosted_users:{" + cell + "}";
	}

	static String impressionsKey(String cell) {
		return "boost_impressions:{" + cell + "}";
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
