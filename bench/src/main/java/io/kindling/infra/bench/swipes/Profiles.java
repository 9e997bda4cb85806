package io.kindling.infra.bench.swipes;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;

import io.kindling.infra.bench.BenchStack;

/**
 * The swipe benches' users: profiles all in one place and open to everyone, written
 * straight to the table.
 */
public final class Profiles {

	private Profiles() {
	}

	/** Profiles {@code firstId} to {@code firstId + users - 1} in kindling_swipe. */
	public static void seed(BenchStack stack, long firstId, int users) throws SQLException {
		try (Connection db = stack.connect(HttpSwipes.DATABASE)) {
			seed(db, firstId, users);
		}
	}

	private static void seed(Connection db, long firstId, int users) throws SQLException {
		Timestamp now = Timestamp.from(Instant.now());
		try (PreparedStatement insert = db.prepareStatement(
				"""
						INSERT INTO profiles (user_id, display_name, gender, interested_in, birth_date, lat, lon, geohash,
						                      age_min, age_max, max_distance_km, created_at, updated_at, last_active_at)
						VALUES (?, ?, ?, 'WOMAN,MAN,NONBINARY', '1995-05-05', 52.52, 13.405, 'u33dc0cpp', 18, 99, 100, ?, ?, ?)""")) {
			for (int i = 0; i < users; i++) {
				insert.setLong(1, firstId + i);
				insert.setString(2, "bench " + (firstId + i));
				insert.setString(3, (i % 2 == 0) ? "WOMAN" : "MAN");
				insert.setTimestamp(4, now);
				insert.setTimestamp(5, now);
				insert.setTimestamp(6, now);
				insert.addBatch();
				if (i % 1000 == 999) {
					insert.executeBatch();
				}
			}
			insert.executeBatch();
		}
	}

}
