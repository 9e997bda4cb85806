package io.kindling.matching.ratelimit;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

import io.kindling.matching.MatchingProperties;
import io.kindling.redis.LuaScript;
import io.kindling.support.web.Networks;
import io.kindling.support.web.ProblemType;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * Per-address limits in fixed one-minute windows, counted in Redis so every instance sees
 * the same count: an IPv4 address alone, an IPv6 address by its /64.
 */
@Component
public class RateLimiter {

	private static final long WINDOW_MILLIS = Duration.ofMinutes(1).toMillis();

	private final LuaScript<Long> script = LuaScript.load("rate_limit", Long.class);

	private final StringRedisTemplate redis;

	private final Clock clock;

	private final MatchingProperties.RateLimit limits;

	RateLimiter(StringRedisTemplate redis, Clock clock, MatchingProperties properties) {
		this.redis = redis;
		this.clock = clock;
		this.limits = properties.rateLimit();
	}

	/** Counts a join from this address; refuses {@code rate-limited} past the limit. */
	public void countJoin(String address) {
		count("joins", address, this.limits.joinsPerMinute());
	}

	/**
	 * Counts a new session from this address; refuses {@code rate-limited} past the
	 * limit.
	 */
	public void countSession(String address) {
		count("sessions", address, this.limits.sessionsPerMinute());
	}

	/**
	 * Counts a party made or a party code tried from this address; refuses
	 * {@code rate-limited} past the limit, which bounds guessing codes.
	 */
	public void countParty(String address) {
		count("parties", address, this.limits.partiesPerMinute());
	}

	private void count(String kind, String address, int perMinute) {
		if (perMinute == 0) {
			return;
		}
		long now = this.clock.millis();
		long window = now / WINDOW_MILLIS;
		// an IPv6 address by its /64: its owner can pick any address in it
		String key = "matching:rate:" + kind + ":" + Networks.rateLimitKey(address) + ":" + window;
		// the key outlives its window a little so that a slow clock between instances
		// does not reset it
		Long count = this.script.run(this.redis, List.of(key), String.valueOf(WINDOW_MILLIS * 2));
		if (count != null && count > perMinute) {
			long windowEnds = (window + 1) * WINDOW_MILLIS;
			Duration retryAfter = Duration.ofMillis(windowEnds - now);
			throw ProblemType.RATE_LIMITED.refused(
					"too many requests from this address; retry in " + Math.max(1, retryAfter.toSeconds()) + " s",
					retryAfter);
		}
	}

}
