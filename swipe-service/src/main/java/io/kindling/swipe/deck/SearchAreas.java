package io.kindling.swipe.deck;

import java.time.Duration;

import io.kindling.swipe.profile.Profile;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * The geohash precision whose area last filled the user's deck,
 * {@code deck_area:{<user>}} = {@code <precision>:<geohash>}: a heavy swiper has used up
 * the narrow areas, so the next deck starts where the last one ended instead of scanning
 * them again. Forgotten when the user moves.
 */
@Component
class SearchAreas {

	private static final Duration KEPT = Duration.ofDays(7);

	private final StringRedisTemplate redis;

	SearchAreas(StringRedisTemplate redis) {
		this.redis = redis;
	}

	int lastUsed(Profile viewer) {
		String value = this.redis.opsForValue().get(key(viewer.userId()));
		if (value == null) {
			return Integer.MAX_VALUE;
		}
		int colon = value.indexOf(':');
		return viewer.geohash().equals(value.substring(colon + 1)) ? Integer.parseInt(value.substring(0, colon))
				: Integer.MAX_VALUE;
	}

	void remember(Profile viewer, int precision) {
		this.redis.opsForValue().set(key(viewer.userId()), precision + ":" + viewer.geohash(), KEPT);
	}

	/** A rewind gives people back: start narrow again. */
	void forget(long userId) {
		this.redis.delete(key(userId));
	}

	private static String key(long userId) {
		return "deck_area:{" + userId + "}";
	}

}
