package io.kindling.infra.bench.deck;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * One of the deck bench's viewers, in the densest city: a woman of 28 looking for men 24
 * to 36 within 50 km; the swipes she is given, and her deck as the plain SQL query that
 * excludes them with {@code NOT EXISTS}, the service's baseline.
 */
final class Viewer {

	private static final String SCORE = "desirability - LEAST(TIMESTAMPDIFF(HOUR, last_active_at, ?), 720) * 10 / 24";

	final long id;

	private final double lat;

	private final double lon;

	private final Instant now;

	/** The geohash precision the SQL deck found enough at last time: it starts there. */
	private int lastPrecision = 6;

	private Viewer(long id, double lat, double lon, Instant now) {
		this.id = id;
		this.lat = lat;
		this.lon = lon;
		this.now = now;
	}

	/** The city of SeedData's with the most people: where every viewer lives. */
	static Object[] densestCity() {
		Object[] densest = SeedData.CITIES[0];
		for (Object[] city : SeedData.CITIES) {
			if ((double) city[3] > (double) densest[3]) {
				densest = city;
			}
		}
		return densest;
	}

	/** Writes the viewer's profile, in the city. */
	static Viewer insert(Connection db, long id, Object[] city, Instant now) throws SQLException {
		Viewer viewer = new Viewer(id, (double) city[1], (double) city[2], now);
		try (PreparedStatement insert = db.prepareStatement("""
				REPLACE INTO profiles (user_id, display_name, gender, interested_in, birth_date, lat, lon, geohash,
				    age_min, age_max, max_distance_km, desirability, created_at, updated_at, last_active_at)
				VALUES (?, ?, 'WOMAN', 'MAN', ?, ?, ?, ?, 24, 36, 50, 1000, ?, ?, ?)""")) {
			insert.setLong(1, id);
			insert.setString(2, "Viewer " + id);
			insert.setObject(3, LocalDate.ofInstant(now, ZoneOffset.UTC).minusYears(28).minusDays(100));
			insert.setDouble(4, viewer.lat);
			insert.setDouble(5, viewer.lon);
			insert.setString(6, GeohashEncoder.encode(viewer.lat, viewer.lon, 9));
			insert.setTimestamp(7, Timestamp.from(now));
			insert.setTimestamp(8, Timestamp.from(now));
			insert.setTimestamp(9, Timestamp.from(now));
			insert.executeUpdate();
		}
		if (!db.getAutoCommit()) {
			db.commit();
		}
		return viewer;
	}

	/**
	 * Swipes on the viewer's best-ranked candidates of the wider area (the ones any deck
	 * shows first), topped up with random people when the area has fewer. Returns how
	 * many of the swipes fell on candidates of the area.
	 */
	int giveSwipes(Connection db, int swipes, long profiles) throws SQLException {
		if (swipes == 0) {
			return 0;
		}
		Set<Long> targets = new LinkedHashSet<>(candidates(db, 4, swipes, false));
		int inPool = targets.size();
		SplittableRandom random = new SplittableRandom(this.id);
		while (targets.size() < swipes) {
			targets.add(1 + random.nextLong(profiles));
		}
		db.setAutoCommit(false);
		try (PreparedStatement insert = db.prepareStatement("""
				INSERT INTO swipe_history (request_id, request_hash, user_id, target_user_id, action, response_status,
				    created_at)
				VALUES (?, ?, ?, ?, ?, 0, ?)""")) {
			int n = 0;
			for (long target : targets) {
				insert.setString(1, "bench-" + this.id + "-" + n);
				insert.setString(2, "0".repeat(64));
				insert.setLong(3, this.id);
				insert.setLong(4, target);
				insert.setString(5, (n % 3 == 0) ? "LIKE" : "PASS");
				insert.setTimestamp(6, Timestamp.from(this.now.minusSeconds(swipes - n)));
				insert.addBatch();
				if (++n % 2_000 == 0) {
					insert.executeBatch();
				}
			}
			insert.executeBatch();
		}
		db.commit();
		db.setAutoCommit(true);
		return inPool;
	}

	/**
	 * The baseline deck: the same area as the service (geohash cells from 6 characters,
	 * widening while fewer than 200 are found, starting where the last run ended),
	 * preferences and ranking, with the swiped excluded by MySQL with NOT EXISTS.
	 */
	int sqlDeck(Connection db) throws SQLException {
		int found = 0;
		int precision = this.lastPrecision;
		for (; precision >= 3; precision--) {
			found = candidates(db, precision, 200, true).size();
			if (found >= 200) {
				break;
			}
		}
		this.lastPrecision = Math.max(3, precision);
		return found;
	}

	private List<Long> candidates(Connection db, int precision, int limit, boolean excludeSwiped) throws SQLException {
		List<String> cells = GeohashEncoder.cellAndNeighbours(this.lat, this.lon, precision);
		StringBuilder area = new StringBuilder();
		for (int i = 0; i < cells.size(); i++) {
			area.append((i == 0) ? "" : " OR ").append("(geohash >= ? AND geohash < ?)");
		}
		LocalDate today = LocalDate.ofInstant(this.now, ZoneOffset.UTC);
		String sql = "SELECT user_id, " + SCORE + " AS score FROM profiles p WHERE gender IN ('MAN') AND (" + area + """
						)
						  AND FIND_IN_SET('WOMAN', interested_in) > 0
				  AND birth_date <= ? AND birth_date > ?
				  AND age_min <= 28 AND age_max >= 28 AND user_id <> ?
				  AND ST_Distance_Sphere(POINT(lon, lat), POINT(?, ?), 6371008.8) <= LEAST(max_distance_km, 50) * 1000
				""" + (excludeSwiped ? """
				  AND NOT EXISTS (SELECT 1 FROM swipe_history s
				                  WHERE s.user_id = ? AND s.target_user_id = p.user_id AND s.undone_at IS NULL)
				""" : "") + " ORDER BY score DESC, user_id LIMIT ?";
		try (PreparedStatement query = db.prepareStatement(sql)) {
			int p = 1;
			query.setTimestamp(p++, Timestamp.from(this.now));
			for (String cell : cells) {
				query.setString(p++, cell);
				query.setString(p++, cell + "~");
			}
			query.setObject(p++, today.minusYears(24));
			query.setObject(p++, today.minusYears(37));
			query.setLong(p++, this.id);
			query.setDouble(p++, this.lon);
			query.setDouble(p++, this.lat);
			if (excludeSwiped) {
				query.setLong(p++, this.id);
			}
			query.setInt(p, limit);
			List<Long> ids = new ArrayList<>();
			try (ResultSet rs = query.executeQuery()) {
				while (rs.next()) {
					ids.add(rs.getLong(1));
				}
			}
			return ids;
		}
	}

}
