package io.kindling.push;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import io.kindling.redis.LuaScript;
import io.kindling.support.web.ProblemType;
import io.swagger.v3.oas.models.security.SecurityScheme;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Short-lived, single-use tickets that open an event stream: an {@code EventSource}
 * cannot send an {@code Authorization} header, and a credential never goes in a URL
 * (where access logs and browser history keep it). A ticket names its subject (a session,
 * a user) and opens one stream of that subject's, once, within {@link #LIFETIME}. Tickets
 * live in Redis, so any instance redeems what another issued; each has a key (and hash
 * tag) of its own, so they spread over a cluster's slots. A subject is issued at most
 * {@code kindling.web.stream-tickets-per-minute}, counted across instances.
 */
public final class StreamTickets {

	/** The query parameter that carries a ticket: {@code GET …/events?ticket=…}. */
	public static final String PARAMETER = "ticket";

	/**
	 * How long a ticket is valid: enough to open a stream, too short to be worth
	 * stealing.
	 */
	public static final Duration LIFETIME = Duration.ofSeconds(60);

	/** 256 random bits, URL-safe base64 without padding: 43 characters. */
	private static final int TICKET_BYTES = 32;

	private static final Pattern TICKET = Pattern.compile("[A-Za-z0-9_-]{43}");

	private static final long WINDOW_MILLIS = Duration.ofMinutes(1).toMillis();

	private final LuaScript<Long> count = LuaScript.load("count_stream_ticket", Long.class);

	private final SecureRandom random = new SecureRandom();

	private final StringRedisTemplate redis;

	private final Clock clock;

	private final StreamLimits limits;

	private final String keyPrefix;

	/**
	 * @param keyPrefix put before {@code {<ticket>}} to make the ticket's key, such as
	 * {@code matching:ticket:}
	 */
	public StreamTickets(StringRedisTemplate redis, Clock clock, StreamLimits limits, String keyPrefix) {
		this.redis = redis;
		this.clock = clock;
		this.limits = limits;
		this.keyPrefix = keyPrefix;
	}

	/**
	 * A new ticket for the subject, valid for {@link #LIFETIME} from now.
	 * @throws io.kindling.support.web.Refused {@code rate-limited}, with
	 * {@code Retry-After}, past the subject's tickets for this minute
	 */
	public IssuedTicket issue(String subject) {
		counted(subject);
		byte[] bytes = new byte[TICKET_BYTES];
		this.random.nextBytes(bytes);
		String ticket = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
		Instant expiresAt = this.clock.instant().plus(LIFETIME);
		// the expiry is kept in the value and checked against the service's clock; the
		// key's own TTL only clears tickets nobody redeemed
		this.redis.opsForValue().set(key(ticket), expiresAt.toEpochMilli() + ":" + subject, LIFETIME);
		return new IssuedTicket(ticket, expiresAt);
	}

	/**
	 * The subject of a ticket that was issued, not used before and not expired; the
	 * ticket is spent either way. Atomic across instances ({@code GETDEL}): of two
	 * redemptions of one ticket, one gets the subject.
	 */
	public Optional<String> redeem(String ticket) {
		if (!TICKET.matcher(ticket).matches()) {
			return Optional.empty();
		}
		String value = this.redis.opsForValue().getAndDelete(key(ticket));
		int separator = (value != null) ? value.indexOf(':') : -1;
		if (separator < 1) {
			return Optional.empty();
		}
		long expiresAt;
		try {
			expiresAt = Long.parseLong(value.substring(0, separator));
		}
		catch (NumberFormatException ex) {
			// not a value this class wrote
			return Optional.empty();
		}
		if (this.clock.millis() >= expiresAt) {
			return Optional.empty();
		}
		return Optional.of(value.substring(separator + 1));
	}

	private void counted(String subject) {
		long now = this.clock.millis();
		long window = now / WINDOW_MILLIS;
		String key = StreamLeases.key(this.keyPrefix + "count:", subject) + ":" + window;
		// the key outlives its window a little, so a clock a little behind does not reset
		// it
		Long issued = this.count.run(this.redis, List.of(key), String.valueOf(WINDOW_MILLIS * 2));
		if (issued != null && issued > this.limits.streamTicketsPerMinute()) {
			throw ProblemType.RATE_LIMITED.refused(
					"at most " + this.limits.streamTicketsPerMinute() + " stream tickets a minute",
					Duration.ofMillis((window + 1) * WINDOW_MILLIS - now));
		}
	}

	private String key(String ticket) {
		return this.keyPrefix + "{" + ticket + "}";
	}

	/**
	 * The OpenAPI security scheme of a ticket: a query parameter, for the event stream.
	 * @param issuedBy the endpoint that issues tickets, such as
	 * {@code POST /api/events/tickets}
	 */
	public static SecurityScheme securityScheme(String issuedBy) {
		return new SecurityScheme().type(SecurityScheme.Type.APIKEY)
			.in(SecurityScheme.In.QUERY)
			.name(PARAMETER)
			.description("A single-use ticket from " + issuedBy + ", valid a minute, "
					+ "for a browser's EventSource, which cannot send a header");
	}

	/** What {@code POST …/tickets} answers: {@code {"ticket","expires_at"}}. */
	public record IssuedTicket(String ticket, Instant expiresAt) {

		@Override
		public String toString() {
			return "IssuedTicket[ticket=<hidden>, expiresAt=" + this.expiresAt + "]";
		}

	}

}
