package io.kindling.consumer;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The consumer's effect: each person's notifications of their matches and of the messages
 * they were sent.
 */
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

	/** The recipient of a message is told who wrote. */
	void messaged(MessageEvent event) {
		insert(event.toUserId(), event.fromUserId(), event.matchId(), "MESSAGE", event.eventId(), event.sentAt());
	}

	private void insert(long userId, MatchEvent event, String kind) {
		insert(userId, event.other(userId), event.matchId(), kind, event.eventId(), event.occurredAt());
	}

	private void insert(long userId, long otherUserId, long matchId, String kind, UUID eventId, Instant occurredAt) {
		this.jdbc.sql(INSERT)
			.param("userId", userId)
			.param("otherUserId", otherUserId)
			.param("matchId", matchId)
			.param("kind", kind)
			.param("eventId", eventId.toString())
			.param("occurredAt", epochSeconds(occurredAt))
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
