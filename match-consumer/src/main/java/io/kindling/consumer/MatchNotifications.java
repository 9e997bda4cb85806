package io.kindling.consumer;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The consumer's effect: each person's notifications of their matches. */
@Repository
class MatchNotifications {

	private static final String INSERT = """
			INSERT INTO match_notifications (user_id, other_user_id, match_id, kind, event_id, occurred_at)
			VALUES (:userId, :otherUserId, :matchId, :kind, :eventId, FROM_UNIXTIME(:occurredAt))
			""";

	private final JdbcClient jdbc;

	MatchNotifications(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/** Both people are told of their new match. */
	void matched(MatchEvent event) {
		for (long userId : event.userIds()) {
			insert(userId, event, "MATCHED");
		}
	}

	/** The person who did not end the match is told it ended. */
	void unmatched(MatchEvent event) {
		Long removedBy = event.removedBy();
		for (long userId : event.userIds()) {
			if (removedBy == null || userId != removedBy) {
				insert(userId, event, "UNMATCHED");
			}
		}
	}

	private void insert(long userId, MatchEvent event, String kind) {
		this.jdbc.sql(INSERT)
			.param("userId", userId)
			.param("otherUserId", event.other(userId))
			.param("matchId", event.matchId())
			.param("kind", kind)
			.param("eventId", event.eventId().toString())
			.param("occurredAt", epochSeconds(event.occurredAt()))
			.update();
	}

	/**
	 * Seconds since the epoch to the microsecond, for {@code FROM_UNIXTIME}: MariaDB's
	 * driver would drop the fraction of a bound {@code Timestamp}.
	 */
	private static BigDecimal epochSeconds(Instant time) {
		return new BigDecimal(BigInteger.valueOf(ChronoUnit.MICROS.between(Instant.EPOCH, time)), 6);
	}

}
