package io.kindling.infra.bench.deck;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Properties;
import java.util.SplittableRandom;

import io.kindling.infra.bench.BenchOptions;

/**
 * Generates dating profiles into swipe-service's {@code profiles} table: people clustered
 * around real cities by population (plus a rural share), a realistic mix of genders,
 * orientations, ages, age ranges and distances, and an Elo-like desirability spread.
 * Deterministic for a given seed.
 *
 * <pre>
 * ./kindling seed-data --profiles 1000000 [--first-id 1] [--seed 42]
 * </pre>
 */
public final class SeedData {

	/** City, latitude, longitude, weight (metro population in millions). */
	static final Object[][] CITIES = { { "New York", 40.71, -74.01, 19.5 }, { "Los Angeles", 34.05, -118.24, 13.0 },
			{ "Chicago", 41.88, -87.63, 9.4 }, { "Dallas", 32.78, -96.80, 7.6 }, { "Houston", 29.76, -95.37, 7.1 },
			{ "Washington", 38.91, -77.04, 6.3 }, { "Philadelphia", 39.95, -75.17, 6.2 },
			{ "Miami", 25.76, -80.19, 6.1 }, { "Atlanta", 33.75, -84.39, 6.1 }, { "Boston", 42.36, -71.06, 4.9 },
			{ "Phoenix", 33.45, -112.07, 4.9 }, { "San Francisco", 37.77, -122.42, 4.7 },
			{ "Seattle", 47.61, -122.33, 4.0 }, { "Minneapolis", 44.98, -93.27, 3.7 },
			{ "San Diego", 32.72, -117.16, 3.3 }, { "Denver", 39.74, -104.99, 3.0 }, { "London", 51.51, -0.13, 9.5 },
			{ "Paris", 48.86, 2.35, 11.0 }, { "Berlin", 52.52, 13.40, 4.5 }, { "Madrid", 40.42, -3.70, 6.7 },
			{ "Rome", 41.90, 12.50, 4.3 }, { "Amsterdam", 52.37, 4.90, 2.5 }, { "Stockholm", 59.33, 18.07, 2.4 },
			{ "Warsaw", 52.23, 21.01, 3.1 }, { "Toronto", 43.65, -79.38, 6.2 }, { "Mexico City", 19.43, -99.13, 21.8 },
			{ "São Paulo", -23.55, -46.63, 22.0 }, { "Buenos Aires", -34.60, -58.38, 15.4 },
			{ "Sydney", -33.87, 151.21, 5.3 }, { "Melbourne", -37.81, 144.96, 5.1 }, { "Tokyo", 35.68, 139.69, 37.0 },
			{ "Seoul", 37.57, 126.98, 9.9 }, { "Mumbai", 19.08, 72.88, 20.7 }, { "Lagos", 6.52, 3.38, 15.3 },
			{ "Cairo", 30.04, 31.24, 21.3 }, { "Istanbul", 41.01, 28.98, 15.6 } };

	/** Share of people living away from any city centre. */
	private static final double RURAL = 0.05;

	private SeedData() {
	}

	public static void main(String[] args) throws SQLException {
		BenchOptions options = BenchOptions.of(args);
		long profiles = options.number("--profiles", 100_000);
		long firstId = options.number("--first-id", 1);
		long seed = options.number("--seed", 42);
		String jdbcUrl = options.text("--jdbc-url",
				"jdbc:mysql://127.0.0.1:3306/kindling_swipe?useSSL=false&allowPublicKeyRetrieval=true");
		String user = options.text("--user", "kindling");
		String password = options.text("--password", "kindling");
		long started = System.nanoTime();
		try (Connection connection = connect(jdbcUrl, user, password)) {
			generate(connection, firstId, profiles, seed, Instant.now(), true);
		}
		System.out.printf("seeded %,d profiles (ids %d..%d) in %.1f s%n", profiles, firstId, firstId + profiles - 1,
				(System.nanoTime() - started) / 1e9);
	}

	/**
	 * A connection for bulk inserts, in UTC as the services' are: the profiles' times are
	 * bound as {@code Timestamp}s, which the driver converts in its connection zone.
	 */
	static Connection connect(String jdbcUrl, String user, String password) throws SQLException {
		Properties properties = new Properties();
		properties.setProperty("user", user);
		properties.setProperty("password", password);
		properties.setProperty("connectionTimeZone", "UTC");
		properties.setProperty("sessionVariables", "time_zone='+00:00'");
		return DriverManager.getConnection(withBatchRewrite(jdbcUrl), properties);
	}

	private static String withBatchRewrite(String jdbcUrl) {
		if (jdbcUrl.contains("rewriteBatchedStatements")) {
			return jdbcUrl;
		}
		return jdbcUrl + (jdbcUrl.contains("?") ? "&" : "?")
				+ "useSSL=false&allowPublicKeyRetrieval=true&rewriteBatchedStatements=true";
	}

	/**
	 * Inserts {@code count} profiles with ids from {@code firstId}; with {@code replace},
	 * existing ids are overwritten (a fresh table takes the faster plain insert).
	 */
	static void generate(Connection connection, long firstId, long count, long seed, Instant now, boolean replace)
			throws SQLException {
		double totalWeight = 0;
		for (Object[] city : CITIES) {
			totalWeight += (double) city[3];
		}
		SplittableRandom random = new SplittableRandom(seed);
		LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
		Timestamp created = Timestamp.from(now.minus(200, ChronoUnit.DAYS));
		connection.setAutoCommit(false);
		try (Statement session = connection.createStatement()) {
			session.execute("SET SESSION unique_checks = 0");
		}
		String sql = (replace ? "REPLACE" : "INSERT") + """
				 INTO profiles (user_id, display_name, gender, interested_in, birth_date, lat, lon, geohash,
				    age_min, age_max, max_distance_km, desirability, created_at, updated_at, last_active_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""";
		try (PreparedStatement insert = connection.prepareStatement(sql)) {
			for (long i = 0; i < count; i++) {
				long id = firstId + i;
				double lat;
				double lon;
				if (random.nextDouble() < RURAL) {
					Object[] city = pick(random, totalWeight);
					lat = (double) city[1] + (random.nextDouble() - 0.5) * 4;
					lon = (double) city[2] + (random.nextDouble() - 0.5) * 4;
				}
				else {
					Object[] city = pick(random, totalWeight);
					// denser in the centre: about 8 km standard deviation
					lat = (double) city[1] + gaussian(random) * 0.07;
					lon = (double) city[2] + gaussian(random) * 0.07 / Math.cos(Math.toRadians((double) city[1]));
				}
				lat = Math.max(-89.9, Math.min(89.9, lat));
				lon = ((lon + 540) % 360) - 180;
				double g = random.nextDouble();
				String gender = (g < 0.48) ? "WOMAN" : (g < 0.96) ? "MAN" : "NONBINARY";
				String interestedIn = interests(random, gender);
				// ages 18..65, most between 22 and 38
				int age = (int) Math.max(18, Math.min(65, Math.round(29 + gaussian(random) * 7)));
				int ageMin = Math.max(18, age - 3 - random.nextInt(8));
				int ageMax = Math.min(99, age + 3 + random.nextInt(10));
				int[] distances = { 10, 25, 25, 50, 50, 50, 80, 100 };
				int maxDistance = distances[random.nextInt(distances.length)];
				double desirability = 1000 + gaussian(random) * 150;
				Timestamp lastActive = Timestamp
					.from(now.minusSeconds((long) (-Math.log(1 - random.nextDouble()) * 3 * 86_400)));
				insert.setLong(1, id);
				insert.setString(2, "User " + id);
				insert.setString(3, gender);
				insert.setString(4, interestedIn);
				insert.setObject(5, today.minusYears(age).minusDays(random.nextInt(365)));
				insert.setDouble(6, lat);
				insert.setDouble(7, lon);
				insert.setString(8, GeohashEncoder.encode(lat, lon, 9));
				insert.setInt(9, ageMin);
				insert.setInt(10, ageMax);
				insert.setInt(11, maxDistance);
				insert.setDouble(12, desirability);
				insert.setTimestamp(13, created);
				insert.setTimestamp(14, created);
				insert.setTimestamp(15, lastActive);
				insert.addBatch();
				if ((i + 1) % 5_000 == 0 || i + 1 == count) {
					insert.executeBatch();
					connection.commit();
				}
				if ((i + 1) % 100_000 == 0) {
					System.out.printf("  %,d profiles%n", i + 1);
				}
			}
		}
		connection.setAutoCommit(true);
	}

	private static String interests(SplittableRandom random, String gender) {
		double r = random.nextDouble();
		return switch (gender) {
			case "WOMAN" ->
				(r < 0.82) ? "MAN" : (r < 0.90) ? "WOMAN" : (r < 0.97) ? "WOMAN,MAN" : "WOMAN,MAN,NONBINARY";
			case "MAN" -> (r < 0.85) ? "WOMAN" : (r < 0.93) ? "MAN" : (r < 0.98) ? "WOMAN,MAN" : "WOMAN,MAN,NONBINARY";
			default -> (r < 0.5) ? "WOMAN,MAN,NONBINARY" : (r < 0.75) ? "WOMAN,NONBINARY" : "MAN,NONBINARY";
		};
	}

	static Object[] pick(SplittableRandom random, double totalWeight) {
		double r = random.nextDouble() * totalWeight;
		for (Object[] city : CITIES) {
			r -= (double) city[3];
			if (r <= 0) {
				return city;
			}
		}
		return CITIES[CITIES.length - 1];
	}

	private static double gaussian(SplittableRandom random) {
		// Box–Muller
		double u = 1 - random.nextDouble();
		double v = random.nextDouble();
		return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
	}

}
