package io.kindling.matching.ban;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.kindling.matching.HeldRead;
import io.kindling.matching.MatchingProperties;
import io.kindling.outbox.SqlTime;
import io.kindling.support.web.Networks;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.event.EventListener;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The {@code bans} table. Every join asks it, and bans are few and rarely change, so the
 * active ones are read whole and trusted for {@code ban-cache-ttl}: a new ban bites after
 * at most that long, and at once wherever {@link BansChanged} is heard. A list too long
 * to hold ({@value #MAX_HELD} active bans) is asked on every join instead. An address is
 * looked up with every network that covers it ({@link Networks#covering}).
 */
@Repository
class JdbcBanList implements BanList {

	static final int MAX_HELD = 100_000;

	private final JdbcClient jdbc;

	private final Clock clock;

	private final int maxHeld;

	/** Null when the cache is off ({@code ban-cache-ttl} 0). */
	private final @Nullable HeldRead<Snapshot> held;

	@Autowired
	JdbcBanList(JdbcClient jdbc, Clock clock, MatchingProperties properties) {
		this(jdbc, clock, properties.banCacheTtl(), MAX_HELD);
	}

	JdbcBanList(JdbcClient jdbc, Clock clock, Duration ttl, int maxHeld) {
		this.jdbc = jdbc;
		this.clock = clock;
		this.maxHeld = maxHeld;
		this.held = ttl.isZero() ? null : new HeldRead<>(ttl, clock, this::read);
	}

	@Override
	public boolean isBanned(String sessionKey, String address) {
		return covers(sessionKey, address);
	}

	@Override
	public boolean isAddressBanned(String address) {
		return covers(null, address);
	}

	private boolean covers(@Nullable String sessionKey, String address) {
		Instant now = this.clock.instant();
		Snapshot bans = current();
		if (bans == null) {
			return askDatabase(sessionKey, address, now);
		}
		if (sessionKey != null && bans.covers(BanType.SESSION, sessionKey, now)) {
			return true;
		}
		// most lists hold no address at all: no subjects to work out then
		return bans.anyAddress()
				&& Networks.covering(address).stream().anyMatch((subject) -> bans.covers(BanType.IP, subject, now));
	}

	/**
	 * Reads the table again at the next question: a ban or a lift made here bites at once
	 * on this instance (the others' caches follow within their TTL). First of all those
	 * told, so that whoever acts on the change asks the table as it is now.
	 */
	@EventListener(BansChanged.class)
	@Order(Ordered.HIGHEST_PRECEDENCE)
	void forget() {
		HeldRead<Snapshot> cache = this.held;
		if (cache != null) {
			cache.forget();
		}
	}

	/** The bans held, or null when they are too many to hold (or the cache is off). */
	private @Nullable Snapshot current() {
		HeldRead<Snapshot> cache = this.held;
		if (cache == null) {
			return null;
		}
		Snapshot known = cache.get();
		return known.tooMany() ? null : known;
	}

	private Snapshot read(Instant now) {
		List<Ban> active = this.jdbc.sql("""
				SELECT ban_type, subject, expires_at FROM bans
				WHERE expires_at IS NULL OR expires_at > FROM_UNIXTIME(:now)
				LIMIT :limit
				""").param("now", SqlTime.epochSeconds(now)).param("limit", this.maxHeld + 1).query(Ban.class).list();
		if (active.size() > this.maxHeld) {
			return new Snapshot(Map.of(), false, true);
		}
		Map<String, Instant> expiries = new HashMap<>();
		boolean anyAddress = false;
		for (Ban ban : active) {
			BanType type = BanType.valueOf(ban.banType());
			anyAddress |= type == BanType.IP;
			expiries.put(key(type, (type == BanType.IP) ? subjectOf(ban.subject()) : ban.subject()),
					(ban.expiresAt() != null) ? ban.expiresAt().toInstant() : Instant.MAX);
		}
		return new Snapshot(Map.copyOf(expiries), anyAddress, false);
	}

	/**
	 * An address ban's subject as {@link Networks#subject} writes it; rows older than
	 * that form (an IPv6 address alone) are read into it.
	 */
	private static String subjectOf(String stored) {
		try {
			return Networks.subject(stored);
		}
		catch (IllegalArgumentException ex) {
			return stored;
		}
	}

	private static String key(BanType type, String subject) {
		return type + ":" + subject;
	}

	private boolean askDatabase(@Nullable String sessionKey, String address, Instant now) {
		return this.jdbc.sql("""
				SELECT COUNT(*) FROM bans
				WHERE ((ban_type = 'SESSION' AND subject = :sessionKey) OR (ban_type = 'IP' AND subject IN (:subjects)))
				  AND (expires_at IS NULL OR expires_at > FROM_UNIXTIME(:now))
				""")
			.param("sessionKey", (sessionKey != null) ? sessionKey : "")
			.param("subjects", Networks.covering(address))
			.param("now", SqlTime.epochSeconds(now))
			.query(Long.class)
			.single() > 0;
	}

	private record Ban(String banType, String subject, @Nullable Timestamp expiresAt) {

	}

	/**
	 * Active bans by type and subject, with when each ends.
	 *
	 * @param anyAddress whether any of them bans an address or a network
	 */
	private record Snapshot(Map<String, Instant> expiries, boolean anyAddress, boolean tooMany) {

		boolean covers(BanType type, String subject, Instant now) {
			Instant ends = this.expiries.get(key(type, subject));
			// a ban that ran out since the read no longer counts
			return ends != null && now.isBefore(ends);
		}

	}

}
