package io.kindling.swipe.swipe;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Today's (UTC) likes and super likes per user, in {@code daily_swipe_counts}, counted in
 * the transaction that stores the swipe. Counting and storing are one transaction, and
 * the count's row lock queues a user's concurrent likes behind each other, so no number
 * of parallel requests passes a limit together. A rewound swipe stays counted: the count
 * is of swipes made, not of swipes standing.
 */
@Repository
class DailyLimits {

	private final JdbcClient jdbc;

	private final SwipeProperties properties;

	DailyLimits(JdbcClient jdbc, SwipeProperties properties) {
		this.jdbc = jdbc;
		this.properties = properties;
	}

	/** The day's limit of this action, 0 for none (a pass has none). */
	int limitOf(Action action) {
		return switch (action) {
			case LIKE -> this.properties.dailyLikes();
			case SUPER_LIKE -> this.properties.dailySuperLikes();
			case PASS -> 0;
		};
	}

	/**
	 * Counts one swipe of this action for the user's day, unless the limit is reached.
	 * Call it in the transaction that stores the swipe, after the swipe's insert: the
	 * count's row stays locked until that transaction ends.
	 * @return false when the limit was reached, and nothing was counted
	 */
	boolean take(long userId, Action action, Instant now) {
		if (!TransactionSynchronizationManager.isActualTransactionActive()) {
			throw new IllegalStateException("a swipe is counted in the transaction that stores it");
		}
		// makes the row, or starts its count again on a new day, and locks it either way;
		// an instance whose clock is behind at midnight counts into the later day
		this.jdbc.sql("""
				INSERT INTO daily_swipe_counts (user_id, action, day, used) VALUES (:userId, :action, :day, 0)
				ON DUPLICATE KEY UPDATE used = IF(day >= VALUES(day), used, 0), day = GREATEST(day, VALUES(day))
				""").param("userId", userId).param("action", action.name()).param("day", today(now)).update();
		return this.jdbc.sql("""
				UPDATE daily_swipe_counts SET used = used + 1
				WHERE user_id = :userId AND action = :action AND used < :limit
				""")
			.param("userId", userId)
			.param("action", action.name())
			.param("limit", limitOf(action))
			.update() == 1;
	}

	/** Until the day's limits start again: midnight UTC. */
	static Duration untilReset(Instant now) {
		return Duration.between(now, today(now).plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant());
	}

	private static LocalDate today(Instant now) {
		return LocalDate.ofInstant(now, ZoneOffset.UTC);
	}

}
