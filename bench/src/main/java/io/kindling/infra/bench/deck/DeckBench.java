package io.kindling.infra.bench.deck;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;

import io.kindling.infra.bench.BenchHost;
import io.kindling.infra.bench.BenchOptions;
import io.kindling.infra.bench.BenchStack;
import io.kindling.infra.bench.Load;
import io.kindling.infra.bench.Load.Result;
import io.kindling.infra.http.Hs256;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServiceClient;
import io.kindling.infra.servers.MariaDbServer;
import io.kindling.infra.servers.ServiceJar;
import org.HdrHistogram.Histogram;
import redis.clients.jedis.UnifiedJedis;

/**
 * {@code ./kindling bench deck [--profiles 1000000]}: starts its own Redis, MariaDB and a
 * swipe-service jar on free ports, seeds the profiles, gives three viewers in the densest
 * city 0, 1,000 and 20,000 swipes (on their best-ranked candidates, the worst case for
 * any exclusion), then measures {@code GET /api/deck} (a fresh deck assembled on every
 * call, and plain paging through stored decks) beside the plain SQL query that excludes
 * swiped ids with {@code NOT EXISTS} on {@code swipe_history}, and prints the swipe
 * history filter's memory per viewer. Stops everything it started.
 */
public final class DeckBench {

	private static final String DATABASE = "kindling_swipe";

	private static final int[] SWIPES = { 0, 1_000, 20_000 };

	private static final String SCORE = "desirability - LEAST(TIMESTAMPDIFF(HOUR, last_active_at, ?), 720) * 10 / 24";

	private DeckBench() {
	}

	public static void main(String[] args) throws Exception {
		BenchOptions options = BenchOptions.of(args);
		long profiles = options.number("--profiles", 1_000_000);
		int assemblies = (int) options.number("--assemblies", 100);
		int pages = (int) options.number("--pages", 200);
		long thinkMillis = options.number("--think-ms", 250);
		try (BenchStack stack = BenchStack.of("deck", options).redis().mariaDb(DATABASE).start()) {
			String secret = Hs256.newSecret();
			List<String> settings = new ArrayList<>(
					List.of("--kindling.security.jwt-secret=" + secret, "--logging.level.root=WARN"));
			// any --name=value argument is a setting for the service
			settings.addAll(options.settings());
			ServiceJar service = stack.startService("swipe-service", "1g", "swipe-service.log", settings);
			ServiceClient http = new ServiceClient(service.port(), Duration.ofSeconds(30));
			Instant now = Instant.now();
			UnifiedJedis jedis = stack.redis().client();
			try (Connection db = SeedData.connect(stack.jdbcUrl(DATABASE), MariaDbServer.USER,
					MariaDbServer.PASSWORD)) {
				long started = System.nanoTime();
				System.out.printf("seeding %,d profiles...%n", profiles);
				// a bulk load is far faster into a table without secondary indexes, built
				// once after
				execute(db, "ALTER TABLE profiles DROP INDEX idx_profiles_deck, DROP INDEX idx_profiles_geohash");
				SeedData.generate(db, 1, profiles, 42, now, false);
				// the same definitions as swipe-service's V1 and V10 migrations
				execute(db, """
						ALTER TABLE profiles ADD KEY idx_profiles_geohash (geohash),
						    ADD KEY idx_profiles_deck (gender, geohash, birth_date, age_min, age_max, interested_in,
						        max_distance_km, lat, lon, desirability, last_active_at)""");
				analyze(db, "profiles");
				double seedSeconds = (System.nanoTime() - started) / 1e9;
				System.out.printf("seeded in %.0f s%n", seedSeconds);

				// three viewers in the densest city: a woman of 28 looking for men 24-36
				// within 50 km
				Object[] city = densestCity();
				List<Long> viewers = new ArrayList<>();
				List<Integer> pools = new ArrayList<>();
				for (int i = 0; i < SWIPES.length; i++) {
					long viewer = profiles + 1 + i;
					viewers.add(viewer);
					insertViewer(db, viewer, (double) city[1], (double) city[2], now);
					pools.add(giveSwipes(db, viewer, SWIPES[i], (double) city[1], (double) city[2], profiles, now));
				}
				analyze(db, "swipe_history");

				String loadBefore = BenchHost.loadAverage(" / ");
				List<String[]> rows = new ArrayList<>();
				long errors = 0;
				for (int i = 0; i < viewers.size(); i++) {
					long viewer = viewers.get(i);
					String token = Hs256.token(secret, viewer);
					// warm-up: also rebuilds the viewer's filter from swipe_history
					// (nothing is in Redis yet)
					for (int w = 0; w < 5; w++) {
						jedis.del("deck:{" + viewer + "}");
						deck(http, token);
					}
					Histogram sql = new Histogram(3);
					AtomicInteger cards = new AtomicInteger();
					AtomicInteger sqlRows = new AtomicInteger();
					int[] lastPrecision = { 6 };
					for (int w = 0; w < 5; w++) {
						notExistsDeck(db, viewer, (double) city[1], (double) city[2], now, lastPrecision);
					}
					// the service and its baseline take turns, so both meet the same
					// machine load
					Result assemble = Load.sequence(assemblies, (call) -> {
						jedis.del("deck:{" + viewer + "}");
						call.startClock();
						cards.set(deck(http, token));
						call.stopClock();
						long t0 = System.nanoTime();
						sqlRows.set(notExistsDeck(db, viewer, (double) city[1], (double) city[2], now, lastPrecision));
						sql.recordValue((System.nanoTime() - t0) / 1_000);
					});
					// a person reads a page before asking for the next: that pause is
					// what lets the next deck be assembled in the background
					Result paging = page(http, token, jedis, viewer, pages, thinkMillis);
					// a client that pages without pausing outruns the background refill
					Result burst = page(http, token, jedis, viewer, pages, 0);
					errors += assemble.errors() + paging.errors() + burst.errors();
					long memory = bloomMemory(jedis, viewer);
					String buckets = jedis.get("swiped_bf:{" + viewer + "}:count");
					rows.add(new String[] { String.format("%,d", SWIPES[i]), ms(assemble.latency(), 50),
							ms(assemble.latency(), 99), ms(paging.latency(), 50), ms(paging.latency(), 99),
							ms(burst.latency(), 50), ms(burst.latency(), 99), ms(sql, 50), ms(sql, 99),
							String.format("%,d B (%s swipes)", memory, buckets), cards + " / " + sqlRows,
							String.format("%,d", pools.get(i)) });
				}
				String loadAfter = BenchHost.loadAverage(" / ");
				String mode = bloomMode(jedis);
				System.out.println();
				System.out.printf(
						"Deck benchmark: %,d profiles (seeded in %.0f s), viewers in %s, swipe filter %s at error rate 0.01 per bucket of 5,000%n",
						profiles, seedSeconds, city[0], mode);
				System.out.printf(
						"machine: %d cores, load average %s at the start of the measurements, %s at the end%n",
						Runtime.getRuntime().availableProcessors(), loadBefore, loadAfter);
				System.out.printf(
						"GET /api/deck?limit=20 over HTTP: 'assemble' builds a new 200-card deck every call (%d calls); 'paging' is %d calls %d ms apart, 'no pause' %d calls back to back,%n"
								+ "both from an empty deck, the next deck assembled in the background when fewer than 100 cards are left;%n",
						assemblies, pages, thinkMillis, pages);
				System.out.printf(
						"baseline: the plain SQL query (JDBC, same area, preferences and ranking) that excludes swipes with NOT EXISTS, %d runs taking turns with 'assemble'.%n%n",
						assemblies);
				String format = "| %-7s | %-12s | %-12s | %-12s | %-12s | %-15s | %-15s | %-18s | %-18s | %-26s | %-12s | %-11s |%n";
				System.out.printf(format, "swipes", "assemble p50", "assemble p99", "paging p50", "paging p99",
						"no pause p50", "no pause p99", "SQL NOT EXISTS p50", "SQL NOT EXISTS p99", "Bloom memory",
						"cards / rows", "swiped pool");
				System.out.printf(format, "---", "---", "---", "---", "---", "---", "---", "---", "---", "---", "---",
						"---");
				for (String[] row : rows) {
					System.out.printf(format, (Object[]) row);
				}
				if (errors > 0) {
					System.out.printf("%nerrors: %,d calls of GET /api/deck failed%n", errors);
				}
			}
		}
	}

	/** {@code pages} calls from an empty deck, {@code thinkMillis} apart. */
	private static Result page(ServiceClient http, String token, UnifiedJedis jedis, long viewer, int pages,
			long thinkMillis) throws InterruptedException {
		// a refill still running from the last round would append to this one's deck
		Thread.sleep(1_000);
		jedis.del("deck:{" + viewer + "}");
		return Load.sequence(pages, (call) -> {
			deck(http, token);
			call.stopClock();
			Thread.sleep(thinkMillis);
		});
	}

	private static Object[] densestCity() {
		Object[] densest = SeedData.CITIES[0];
		for (Object[] city : SeedData.CITIES) {
			if ((double) city[3] > (double) densest[3]) {
				densest = city;
			}
		}
		return densest;
	}

	private static void insertViewer(Connection db, long viewer, double lat, double lon, Instant now)
			throws SQLException {
		try (PreparedStatement insert = db.prepareStatement("""
				REPLACE INTO profiles (user_id, display_name, gender, interested_in, birth_date, lat, lon, geohash,
				    age_min, age_max, max_distance_km, desirability, created_at, updated_at, last_active_at)
				VALUES (?, ?, 'WOMAN', 'MAN', ?, ?, ?, ?, 24, 36, 50, 1000, ?, ?, ?)""")) {
			insert.setLong(1, viewer);
			insert.setString(2, "Viewer " + viewer);
			insert.setObject(3, LocalDate.ofInstant(now, ZoneOffset.UTC).minusYears(28).minusDays(100));
			insert.setDouble(4, lat);
			insert.setDouble(5, lon);
			insert.setString(6, GeohashEncoder.encode(lat, lon, 9));
			insert.setTimestamp(7, Timestamp.from(now));
			insert.setTimestamp(8, Timestamp.from(now));
			insert.setTimestamp(9, Timestamp.from(now));
			insert.executeUpdate();
		}
		if (!db.getAutoCommit()) {
			db.commit();
		}
	}

	/**
	 * Swipes on the viewer's best-ranked candidates of the wider area (the ones any deck
	 * shows first), topped up with random people when the area has fewer. Returns how
	 * many of the swipes fell on candidates of the area.
	 */
	private static int giveSwipes(Connection db, long viewer, int swipes, double lat, double lon, long profiles,
			Instant now) throws SQLException {
		if (swipes == 0) {
			return 0;
		}
		Set<Long> targets = new LinkedHashSet<>(candidates(db, viewer, lat, lon, 4, swipes, now, false));
		int inPool = targets.size();
		SplittableRandom random = new SplittableRandom(viewer);
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
				insert.setString(1, "bench-" + viewer + "-" + n);
				insert.setString(2, "0".repeat(64));
				insert.setLong(3, viewer);
				insert.setLong(4, target);
				insert.setString(5, (n % 3 == 0) ? "LIKE" : "PASS");
				insert.setTimestamp(6, Timestamp.from(now.minusSeconds(swipes - n)));
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
	private static int notExistsDeck(Connection db, long viewer, double lat, double lon, Instant now,
			int[] lastPrecision) throws SQLException {
		int found = 0;
		int precision = lastPrecision[0];
		for (; precision >= 3; precision--) {
			found = candidates(db, viewer, lat, lon, precision, 200, now, true).size();
			if (found >= 200) {
				break;
			}
		}
		lastPrecision[0] = Math.max(3, precision);
		return found;
	}

	private static List<Long> candidates(Connection db, long viewer, double lat, double lon, int precision, int limit,
			Instant now, boolean excludeSwiped) throws SQLException {
		List<String> cells = GeohashEncoder.cellAndNeighbours(lat, lon, precision);
		StringBuilder area = new StringBuilder();
		for (int i = 0; i < cells.size(); i++) {
			area.append((i == 0) ? "" : " OR ").append("(geohash >= ? AND geohash < ?)");
		}
		LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
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
			query.setTimestamp(p++, Timestamp.from(now));
			for (String cell : cells) {
				query.setString(p++, cell);
				query.setString(p++, cell + "~");
			}
			query.setObject(p++, today.minusYears(24));
			query.setObject(p++, today.minusYears(37));
			query.setLong(p++, viewer);
			query.setDouble(p++, lon);
			query.setDouble(p++, lat);
			if (excludeSwiped) {
				query.setLong(p++, viewer);
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

	private static int deck(ServiceClient http, String token) {
		Response response = http.get("/api/deck?limit=20", token);
		if (response.status() != 200) {
			throw new IllegalStateException("GET /api/deck answered " + response.status() + ": " + response.body());
		}
		int cards = 0;
		for (int i = response.body().indexOf("\"user_id\""); i >= 0; i = response.body()
			.indexOf("\"user_id\"", i + 1)) {
			cards++;
		}
		return cards;
	}

	private static long bloomMemory(UnifiedJedis jedis, long viewer) {
		String prefix = "swiped_bf:{" + viewer + "}:";
		long total = 0;
		Long count = jedis.memoryUsage(prefix + "count");
		total += (count != null) ? count : 0;
		for (int bucket = 0; bucket < 1_000; bucket++) {
			Long usage = jedis.memoryUsage(prefix + bucket);
			if (usage == null) {
				break;
			}
			total += usage;
		}
		return total;
	}

	private static String bloomMode(UnifiedJedis jedis) {
		Object info = jedis.sendCommand(redis.clients.jedis.Protocol.Command.COMMAND, "INFO", "BF.RESERVE");
		return (info instanceof List<?> entries && !entries.isEmpty() && entries.get(0) != null)
				? "on RedisBloom (module)" : "on plain Redis bitmaps (no RedisBloom here)";
	}

	private static void execute(Connection db, String sql) throws SQLException {
		try (Statement statement = db.createStatement()) {
			statement.execute(sql);
		}
	}

	private static void analyze(Connection db, String table) throws SQLException {
		try (Statement statement = db.createStatement()) {
			statement.execute("ANALYZE TABLE " + table);
		}
	}

	private static String ms(Histogram histogram, double percentile) {
		return String.format("%.1f ms", histogram.getValueAtPercentile(percentile) / 1000.0);
	}

}
