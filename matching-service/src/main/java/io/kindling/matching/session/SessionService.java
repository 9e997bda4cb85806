package io.kindling.matching.session;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Pattern;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.kindling.matching.MatchingProperties;
import io.kindling.matching.ban.BanList;
import io.kindling.matching.ban.BanRefusals;
import io.kindling.matching.ratelimit.RateLimiter;
import io.kindling.push.StreamLimits;
import io.kindling.push.StreamTickets;
import io.kindling.push.StreamTickets.IssuedTicket;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Service;

/** Issues and resolves anonymous session tokens kept in Redis with a TTL. */
@Service
public class SessionService {

	/** 256 random bits, URL-safe base64 without padding: 43 characters. */
	private static final int TOKEN_BYTES = 32;

	private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9_-]{43}");

	private static final Duration REMEMBERED = Duration.ofMinutes(1);

	private final SecureRandom random = new SecureRandom();

	/** Expiry (epoch ms) of sessions seen lately, by token. */
	private final Cache<String, Long> known = Caffeine.newBuilder()
		.maximumSize(200_000)
		.expireAfterWrite(REMEMBERED)
		.build();

	private final StringRedisTemplate redis;

	private final RateLimiter rateLimiter;

	private final Clock clock;

	private final MatchingProperties properties;

	private final StreamTickets tickets;

	private final BanList bans;

	SessionService(StringRedisTemplate redis, RateLimiter rateLimiter, BanList bans, Clock clock,
			MatchingProperties properties, StreamLimits streamLimits) {
		this.redis = redis;
		this.rateLimiter = rateLimiter;
		this.bans = bans;
		this.clock = clock;
		this.properties = properties;
		this.tickets = new StreamTickets(redis, clock, streamLimits, "matching:ticket:");
	}

	/**
	 * A new session, unless this address has had too many this minute, or it (or its
	 * network) is banned.
	 */
	IssuedSession issue(String clientAddress) {
		this.rateLimiter.countSession(clientAddress);
		if (this.bans.isAddressBanned(clientAddress)) {
			throw BanRefusals.BANNED.refused("this address may not start sessions");
		}
		byte[] bytes = new byte[TOKEN_BYTES];
		this.random.nextBytes(bytes);
		String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
		Instant expiresAt = this.clock.instant().plus(this.properties.sessionTtl());
		this.redis.opsForValue()
			.set(key(token), String.valueOf(expiresAt.toEpochMilli()), this.properties.sessionTtl());
		// a ban names a session by its key (the hash MySQL keeps), and must find the
		// token's claim to take it out of its queue
		this.redis.opsForValue().set(tokenKey(Session.keyOf(token)), token, this.properties.sessionTtl());
		return new IssuedSession(token, expiresAt);
	}

	/**
	 * The token of the session with this key (the SHA-256 of its token), while the
	 * session lives.
	 */
	public Optional<String> tokenOf(String sessionKey) {
		return Optional.ofNullable(this.redis.opsForValue().get(tokenKey(sessionKey)));
	}

	/**
	 * The session of a token that was issued here and has not expired. A session is never
	 * extended or revoked, so its expiry, once read, answers on its own: every call of a
	 * session needs it, and asking Redis each time cost a round trip per request. It is
	 * read again after {@link #REMEMBERED} (a session lost with a Redis flush stops
	 * working by then).
	 */
	public Optional<Session> resolve(String token) {
		if (!TOKEN.matcher(token).matches()) {
			return Optional.empty();
		}
		Long expiresAt = this.known.getIfPresent(token);
		if (expiresAt == null) {
			expiresAt = parse(this.redis.opsForValue().get(key(token)));
			if (expiresAt == null) {
				return Optional.empty();
			}
			this.known.put(token, expiresAt);
		}
		if (this.clock.millis() >= expiresAt) {
			this.known.invalidate(token);
			return Optional.empty();
		}
		return Optional.of(new Session(token));
	}

	/**
	 * A single-use ticket that opens this session's event stream, for a browser, whose
	 * {@code EventSource} cannot send the token in a header.
	 */
	public IssuedTicket issueTicket(Session session) {
		return this.tickets.issue(session.token());
	}

	/**
	 * The session a ticket was issued to, if the ticket is unused and unexpired and the
	 * session still valid; the ticket is spent either way.
	 */
	Optional<Session> redeemTicket(String ticket) {
		return this.tickets.redeem(ticket).flatMap(this::resolve);
	}

	private static @Nullable Long parse(@Nullable String expiresAt) {
		try {
			return (expiresAt != null) ? Long.valueOf(expiresAt) : null;
		}
		catch (NumberFormatException ex) {
			// not a value this service wrote
			return null;
		}
	}

	private static String key(String token) {
		return "matching:session:" + token;
	}

	private static String tokenKey(String sessionKey) {
		return "matching:session-key:" + sessionKey;
	}

	record IssuedSession(String token, Instant expiresAt) {

	}

}
