package io.kindling.matching.session;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Pattern;

import io.kindling.matching.MatchingProperties;
import io.kindling.matching.ratelimit.RateLimiter;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Service;

/** Issues and resolves anonymous session tokens kept in Redis with a TTL. */
@Service
public class SessionService {

	/** 256 random bits, URL-safe base64 without padding: 43 characters. */
	private static final int TOKEN_BYTES = 32;

	private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9_-]{43}");

	private final SecureRandom random = new SecureRandom();

	private final StringRedisTemplate redis;

	private final RateLimiter rateLimiter;

	private final Clock clock;

	private final MatchingProperties properties;

	SessionService(StringRedisTemplate redis, RateLimiter rateLimiter, Clock clock, MatchingProperties properties) {
		this.redis = redis;
		this.rateLimiter = rateLimiter;
		this.clock = clock;
		this.properties = properties;
	}

	IssuedSession issue(String clientAddress) {
		this.rateLimiter.countSession(clientAddress);
		byte[] bytes = new byte[TOKEN_BYTES];
		this.random.nextBytes(bytes);
		String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
		Instant expiresAt = this.clock.instant().plus(this.properties.sessionTtl());
		this.redis.opsForValue()
			.set(key(token), String.valueOf(expiresAt.toEpochMilli()), this.properties.sessionTtl());
		return new IssuedSession(token, expiresAt);
	}

	/** The session of a token that was issued here and has not expired. */
	public Optional<Session> resolve(String token) {
		if (!TOKEN.matcher(token).matches() || !Boolean.TRUE.equals(this.redis.hasKey(key(token)))) {
			return Optional.empty();
		}
		return Optional.of(new Session(token));
	}

	private static String key(String token) {
		return "matching:session:" + token;
	}

	record IssuedSession(String token, Instant expiresAt) {

	}

}
