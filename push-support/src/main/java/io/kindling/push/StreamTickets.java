package io.kindling.push;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Pattern;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Short-lived, single-use tickets that open an event stream: an {@code EventSource}
 * cannot send an {@code Authorization} header, and a credential never goes in a URL
 * (where access logs and browser history keep it). A ticket names its subject (a session,
 * a user) and opens one stream of that subject's, once, within {@link #LIFETIME}. Tickets
 * live in Redis, so any instance redeems what another issued; each has a key (and hash
 * tag) of its own, so they spread over a cluster's slots.
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

	private final SecureRandom random = new SecureRandom();

	private final StringRedisTemplate redis;

	private final Clock clock;

	private final String keyPrefix;

	/**
	 * @param keyPrefix put before {@code {<ticket>}} to make the ticket's key, such as
	 * {@code matching:ticket:}
	 */
	public StreamTickets(StringRedisTemplate redis, Clock clock, String keyPrefix) {
		this.redis = redis;
		this.clock = clock;
		this.keyPrefix = keyPrefix;
	}

	/** A new ticket for the subject, valid for {@link #LIFETIME} from now. */
	public IssuedTicket issue(String subject) {
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

	private String key(String ticket) {
		return this.keyPrefix + "{" + ticket + "}";
	}

	/** What {@code POST …/tickets} answers: {@code {"ticket","expires_at"}}. */
	public record IssuedTicket(String ticket, Instant expiresAt) {

		@Override
		public String toString() {
			return "IssuedTicket[ticket=<hidden>, expiresAt=" + this.expiresAt + "]";
		}

	}

}
