package io.kindling.swipe.moderation;

import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import io.kindling.outbox.SqlTime;
import io.kindling.swipe.push.UserDisconnects;
import io.kindling.swipe.security.Suspensions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * The bans in force, held in memory so that every call's check costs a map look-up, and
 * read again from {@code user_bans} every {@code ban-refresh} and at once on the instance
 * that made or lifted a ban. A user newly found banned has their event streams on this
 * instance ended. While the database is away the last read stands.
 */
@Component
class BannedUsers implements Suspensions, SmartInitializingSingleton {

	static final String STREAM_CLOSED_EVENT = "account_suspended";

	private static final Logger log = LoggerFactory.getLogger(BannedUsers.class);

	private final JdbcClient jdbc;

	private final UserDisconnects streams;

	private final Clock clock;

	private volatile Map<Long, Suspension> active = Map.of();

	BannedUsers(JdbcClient jdbc, UserDisconnects streams, Clock clock) {
		this.jdbc = jdbc;
		this.streams = streams;
		this.clock = clock;
	}

	@Override
	public Optional<Suspension> of(long userId) {
		Suspension suspension = this.active.get(userId);
		if (suspension == null || (suspension.endsAt() != null && !suspension.endsAt().isAfter(this.clock.instant()))) {
			return Optional.empty();
		}
		return Optional.of(suspension);
	}

	@Override
	public void afterSingletonsInstantiated() {
		refreshQuietly();
	}

	@Scheduled(initialDelayString = "#{" + ModerationProperties.BEAN + ".banRefresh()}",
			fixedDelayString = "#{" + ModerationProperties.BEAN + ".banRefresh()}")
	void refreshQuietly() {
		try {
			refresh();
		}
		catch (RuntimeException ex) {
			log.warn("Could not read the user bans again; the last read stands: {}", ex.toString());
		}
	}

	/** Reads the bans in force again; ends the streams here of users banned since. */
	synchronized void refresh() {
		Instant now = this.clock.instant();
		Map<Long, Suspension> read = new HashMap<>();
		this.jdbc.sql("""
				SELECT user_id, expires_at FROM user_bans
				WHERE expires_at IS NULL OR expires_at > FROM_UNIXTIME(:now)
				""").param("now", SqlTime.epochSeconds(now)).query((rs) -> {
			java.sql.Timestamp expiresAt = rs.getTimestamp("expires_at");
			read.put(rs.getLong("user_id"), new Suspension((expiresAt != null) ? expiresAt.toInstant() : null));
		});
		Map<Long, Suspension> before = this.active;
		this.active = Map.copyOf(read);
		for (Long userId : read.keySet()) {
			if (!before.containsKey(userId)) {
				this.streams.disconnect(userId, STREAM_CLOSED_EVENT);
			}
		}
	}

}
