package io.kindling.matching.ban;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

import io.kindling.matching.queue.QueueEviction;
import io.kindling.matching.session.SessionService;
import io.kindling.outbox.OutboxEvent;
import io.kindling.outbox.OutboxWriter;
import io.kindling.outbox.SqlTime;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.stereotype.Component;

/**
 * Bans sessions and makes a ban bite: the row and its {@code SESSION_BANNED} event in the
 * caller's transaction, then, once committed, this instance's ban cache read again and
 * the session taken out of its queue.
 */
@Component
public class SessionBans {

	private final JdbcClient jdbc;

	private final OutboxWriter outbox;

	private final JsonMapper json;

	private final Clock clock;

	private final JdbcBanList banList;

	private final SessionService sessions;

	private final QueueEviction eviction;

	SessionBans(JdbcClient jdbc, OutboxWriter outbox, JsonMapper json, Clock clock, JdbcBanList banList,
			SessionService sessions, QueueEviction eviction) {
		this.jdbc = jdbc;
		this.outbox = outbox;
		this.json = json;
		this.clock = clock;
		this.banList = banList;
		this.sessions = sessions;
		this.eviction = eviction;
	}

	/**
	 * Bans a session that enough people reported, inside the caller's transaction, unless
	 * an active ban of it exists (an expired one is renewed).
	 * @param sessionKey the SHA-256 (hex) of its token
	 * @return true when this call banned it
	 */
	public boolean banReported(String sessionKey, int reporters, Instant expiresAt) {
		return ban(sessionKey, "reported from rooms by " + reporters + " sessions", "REPORTS", expiresAt);
	}

	/**
	 * Bans a session an operator named (a room report resolved with {@code BAN}), inside
	 * the caller's transaction, unless an active ban of it exists (an expired one is
	 * renewed). Call {@link #enforce} once it commits.
	 * @param sessionKey the SHA-256 (hex) of its token
	 * @param expiresAt null for a ban with no end
	 * @return true when this call banned it
	 */
	public boolean banByOperator(String sessionKey, String reason, @Nullable Instant expiresAt) {
		return ban(sessionKey, reason, "OPERATOR", expiresAt);
	}

	private boolean ban(String sessionKey, String reason, String source, @Nullable Instant expiresAt) {
		Instant now = this.clock.instant();
		List<Ban> held = this.jdbc.sql("""
				SELECT id, expires_at FROM bans WHERE ban_type = 'SESSION' AND subject = :key FOR UPDATE
				""").param("key", sessionKey).query(Ban.class).list();
		long banId;
		if (held.isEmpty()) {
			KeyHolder keys = new GeneratedKeyHolder();
			try {
				this.jdbc.sql("""
						INSERT INTO bans (ban_type, subject, reason, created_at, expires_at)
						VALUES ('SESSION', :key, :reason, FROM_UNIXTIME(:now), FROM_UNIXTIME(:expiresAt))
						""")
					.param("key", sessionKey)
					.param("reason", reason)
					.param("now", SqlTime.epochSeconds(now))
					.param("expiresAt", (expiresAt != null) ? SqlTime.epochSeconds(expiresAt) : null,
							java.sql.Types.DECIMAL)
					.update(keys, "id");
			}
			catch (DuplicateKeyException ex) {
				// an operator banned it a moment ago
				return false;
			}
			banId = keys.getKeyAs(Number.class).longValue();
		}
		else {
			Ban ban = held.get(0);
			if (ban.expiresAt() == null || ban.expiresAt().toInstant().isAfter(now)) {
				return false;
			}
			this.jdbc
				.sql("""
						UPDATE bans SET reason = :reason, created_at = FROM_UNIXTIME(:now), expires_at = FROM_UNIXTIME(:expiresAt)
						WHERE id = :id
						""")
				.param("reason", reason)
				.param("now", SqlTime.epochSeconds(now))
				.param("expiresAt", (expiresAt != null) ? SqlTime.epochSeconds(expiresAt) : null,
						java.sql.Types.DECIMAL)
				.param("id", ban.id())
				.update();
			banId = ban.id();
		}
		appendBanned(banId, sessionKey, source, expiresAt, now);
		return true;
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
	 * Once bans are committed: this instance asks the table again at the next join, and
	 * each banned session still waiting leaves its queue. Other instances' caches follow
	 * within {@code ban-cache-ttl}; forming never seats a banned session meanwhile.
	 */
	public void enforce(Collection<String> sessionKeys) {
		this.banList.forget();
		for (String sessionKey : sessionKeys) {
			this.sessions.tokenOf(sessionKey).ifPresent(this.eviction::evict);
		}
	}

	/** The {@code SESSION_BANNED} payload; the session by its key, never its token. */
	record SessionBanned(String eventId, String eventType, String eventKey, long banId, String sessionKey,
			String source, Instant bannedAt, @Nullable Instant expiresAt, Instant occurredAt) {

	}

}
