package io.kindling.matching.ban;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import io.kindling.outbox.OutboxEvent;
import io.kindling.outbox.OutboxWriter;
import io.kindling.outbox.SqlTime;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.stereotype.Component;

/**
 * Bans sessions (and the networks of those reports ban) and makes a ban bite: the row,
 * and for a session its {@code SESSION_BANNED} event, in the caller's transaction; then,
 * once committed, {@link BansChanged} told: every instance's ban list reads the table
 * again, and whoever waits banned leaves its queue.
 */
@Component
public class SessionBans {

	private final JdbcClient jdbc;

	private final OutboxWriter outbox;

	private final JsonMapper json;

	private final Clock clock;

	private final ApplicationEventPublisher events;

	SessionBans(JdbcClient jdbc, OutboxWriter outbox, JsonMapper json, Clock clock, ApplicationEventPublisher events) {
		this.jdbc = jdbc;
		this.outbox = outbox;
		this.json = json;
		this.clock = clock;
		this.events = events;
	}

	/**
	 * Bans a session that enough people reported, inside the caller's transaction, unless
	 * an active ban of it exists (an expired one is renewed).
	 * @param sessionKey the SHA-256 (hex) of its token
	 * @param networks how many reporters' networks reported it
	 * @return true when this call banned it
	 */
	public boolean banReported(String sessionKey, int networks, Instant expiresAt) {
		Instant now = this.clock.instant();
		String reason = "reported from rooms from " + networks + " networks";
		Optional<Long> banId = ban(BanType.SESSION, sessionKey, reason, now, expiresAt, false);
		banId.ifPresent((id) -> appendBanned(id, sessionKey, "REPORTS", expiresAt, now));
		return banId.isPresent();
	}

	/**
	 * Bans the network a session banned by reports joined its room from, inside the
	 * caller's transaction: no join nor new session from it until {@code expiresAt}. An
	 * active ban of it that lasts as long stands; a shorter one is made to last as long.
	 * @param network as {@link io.kindling.support.web.Networks#of} names it
	 * @return true when this call banned it, or made its ban last longer
	 */
	public boolean banNetwork(String network, Instant expiresAt) {
		return ban(BanType.IP, network, "the network of a session banned by reports", this.clock.instant(), expiresAt,
				true)
			.isPresent();
	}

	/**
	 * Makes the ban, or renews an expired one. An active one stands, unless
	 * {@code lengthen} and it ends before {@code expiresAt}.
	 * @return the ban's id, when this call made it or made it last longer
	 */
	private Optional<Long> ban(BanType type, String subject, String reason, Instant now, Instant expiresAt,
			boolean lengthen) {
		List<Ban> held = this.jdbc.sql("""
				SELECT id, expires_at FROM bans WHERE ban_type = :type AND subject = :subject FOR UPDATE
				""").param("type", type.name()).param("subject", subject).query(Ban.class).list();
		if (held.isEmpty()) {
			KeyHolder keys = new GeneratedKeyHolder();
			try {
				this.jdbc.sql("""
						INSERT INTO bans (ban_type, subject, reason, created_at, expires_at)
						VALUES (:type, :subject, :reason, FROM_UNIXTIME(:now), FROM_UNIXTIME(:expiresAt))
						""")
					.param("type", type.name())
					.param("subject", subject)
					.param("reason", reason)
					.param("now", SqlTime.epochSeconds(now))
					.param("expiresAt", SqlTime.epochSeconds(expiresAt))
					.update(keys, "id");
			}
			catch (DuplicateKeyException ex) {
				// an operator banned it a moment ago
				return Optional.empty();
			}
			return Optional.of(keys.getKeyAs(Number.class).longValue());
		}
		Ban ban = held.get(0);
		boolean active = ban.expiresAt() == null || ban.expiresAt().toInstant().isAfter(now);
		if (active && !(lengthen && ban.expiresAt() != null && ban.expiresAt().toInstant().isBefore(expiresAt))) {
			return Optional.empty();
		}
		this.jdbc
			.sql("""
					UPDATE bans SET reason = :reason, created_at = FROM_UNIXTIME(:now), expires_at = FROM_UNIXTIME(:expiresAt)
					WHERE id = :id
					""")
			.param("reason", reason)
			.param("now", SqlTime.epochSeconds(now))
			.param("expiresAt", SqlTime.epochSeconds(expiresAt))
			.param("id", ban.id())
			.update();
		return Optional.of(ban.id());
	}

	private record Ban(long id, @Nullable Timestamp expiresAt) {

	}

	/**
	 * The {@code SESSION_BANNED} event of a ban, in the transaction that made it: the
	 * chat service cuts the session out of its conversations on it.
	 * @param source {@code REPORTS} or {@code OPERATOR}
	 */
	public void appendBanned(long banId, String sessionKey, String source, @Nullable Instant expiresAt,
			Instant bannedAt) {
		UUID eventId = UUID.randomUUID();
		Instant occurredAt = this.clock.instant();
		SessionBanned event = new SessionBanned(eventId.toString(), "SESSION_BANNED", sessionKey, banId, sessionKey,
				source, bannedAt, expiresAt, occurredAt);
		this.outbox.append(new OutboxEvent(eventId, "SESSION_BANNED", sessionKey, this.json.writeValueAsString(event),
				occurredAt));
	}

	/**
	 * Once bans are committed: every instance asks the table again at its next question,
	 * and each banned session still waiting leaves its queue, as does each waiting
	 * session that joined from an address banned.
	 * @param addresses true when an address or a network was banned
	 */
	public void enforce(Collection<String> sessionKeys, boolean addresses) {
		this.events.publishEvent(BansChanged.made(List.copyOf(sessionKeys), addresses));
	}

	/** The {@code SESSION_BANNED} payload; the session by its key, never its token. */
	record SessionBanned(String eventId, String eventType, String eventKey, long banId, String sessionKey,
			String source, Instant bannedAt, @Nullable Instant expiresAt, Instant occurredAt) {

	}

}
