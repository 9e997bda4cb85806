package io.kindling.infra.bench.deck;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.kindling.infra.bench.BenchHost;
import io.kindling.infra.bench.BenchOptions;
import io.kindling.infra.bench.BenchStack;
import io.kindling.infra.bench.Load;
import io.kindling.infra.bench.Load.Result;
import io.kindling.infra.bench.Table;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServiceClient;
import io.kindling.infra.servers.MariaDbServer;
import io.kindling.infra.servers.ServiceJar;
import org.HdrHistogram.Histogram;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.UnifiedJedis;

import static io.kindling.infra.bench.Percentiles.ms;

/**
 * {@code ./kindling bench deck [--profiles 1000000]}: starts its own Redis, MariaDB and a
 * swipe-service jar on free ports, seeds the profiles, gives three viewers in the densest
 * city 0, 1,000 and 20,000 swipes (on their best-ranked candidates, the worst case for
 * any exclusion), then measures {@code GET /api/deck} (a fresh deck assembled on every
 * call, and plain paging through stored decks) beside the plain SQL query that excludes
 * swiped ids with {@code NOT EXISTS} on {@code swipe_history} ({@link Viewer#sqlDeck}),
 * and prints the swipe history filter's memory per viewer. Stops everything it started.
 */
public final class DeckBench {

	private static final String DATABASE = "kindling_swipe";

	private static final int[] SWIPES = { 0, 1_000, 20_000 };

	private DeckBench() {
	}

	public static void main(String[] args) throws Exception {
		BenchOptions options = BenchOptions.of(args);
		long profiles = options.number("--profiles", 1_000_000);
		int assemblies = (int) options.number("--assemblies", 100);
		int pages = (int) options.number("--pages", 200);
		long thinkMillis = options.number("--think-ms", 250);
		try (BenchStack stack = BenchStack.of("deck", options).redis().mariaDb(DATABASE).start()) {
			ServiceJar service = stack.startService("swipe-service", "1g", "swipe-service.log", List.of());
			ServiceClient http = new ServiceClient(service.port(), Duration.ofSeconds(30));
			Instant now = Instant.now();
			UnifiedJedis jedis = stack.redis().client();
			try (Connection db = SeedData.connect(stack.jdbcUrl(DATABASE), MariaDbServer.USER,
					MariaDbServer.PASSWORD)) {
				double seedSeconds = seed(db, profiles, now);
				Object[] city = Viewer.densestCity();
				List<Viewer> viewers = new ArrayList<>();
				List<Integer> pools = new ArrayList<>();
				for (int i = 0; i < SWIPES.length; i++) {
					Viewer viewer = Viewer.insert(db, profiles + 1 + i, city, now);
					viewers.add(viewer);
					pools.add(viewer.giveSwipes(db, SWIPES[i], profiles));
				}
				execute(db, "ANALYZE TABLE swipe_history");

				String loadBefore = BenchHost.loadAverage(" / ");
				Table table = Table
					.columns("swipes", "assemble p50", "assemble p99", "paging p50", "paging p99", "no pause p50",
							"no pause p99", "SQL NOT EXISTS p50", "SQL NOT EXISTS p99", "Bloom memory", "cards / rows",
							"swiped pool")
					.right(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11);
				long errors = 0;
				for (int i = 0; i < viewers.size(); i++) {
					Viewer viewer = viewers.get(i);
					String token = stack.token(viewer.id);
					String deckKey = "deck:{" + viewer.id + "}";
					// warm-up: also rebuilds the viewer's filter from swipe_history
					// (nothing is in Redis yet)
					for (int w = 0; w < 5; w++) {
						jedis.del(deckKey);
						deck(http, token);
						viewer.sqlDeck(db);
					}
					Histogram sql = new Histogram(3);
					AtomicInteger cards = new AtomicInteger();
					AtomicInteger sqlRows = new AtomicInteger();
					// the service and its baseline take turns, so both meet the same
					// machine load
					Result assemble = Load.sequence(assemblies, (call) -> {
						jedis.del(deckKey);
						call.startClock();
						cards.set(deck(http, token));
						call.stopClock();
						long started = System.nanoTime();
						sqlRows.set(viewer.sqlDeck(db));
						sql.recordValue((System.nanoTime() - started) / 1_000);
					});
					// a person reads a page before asking for the next: that pause is
					// what lets the next deck be assembled in the background
					Result paging = page(http, token, jedis, deckKey, pages, thinkMillis);
					// a client that pages without pausing outruns the background refill
					Result burst = page(http, token, jedis, deckKey, pages, 0);
					errors += assemble.errors() + paging.errors() + burst.errors();
					table.row(String.format("%,d", SWIPES[i]), ms(assemble.latency(), 50, " ms"),
							ms(assemble.latency(), 99, " ms"), ms(paging.latency(), 50, " ms"),
							ms(paging.latency(), 99, " ms"), ms(burst.latency(), 50, " ms"),
							ms(burst.latency(), 99, " ms"), ms(sql, 50, " ms"), ms(sql, 99, " ms"),
							String.format("%,d B (%s swipes)", bloomMemory(jedis, viewer.id),
									jedis.get("swiped_bf:{" + viewer.id + "}:count")),
							cards + " / " + sqlRows, String.format("%,d", pools.get(i)));
				}
				System.out.printf(
						"%nDeck benchmark: %,d profiles (seeded in %.0f s), viewers in %s, swipe filter %s at error rate 0.01 per bucket of 5,000%n",
						profiles, seedSeconds, city[0], bloomMode(jedis));
				System.out.printf(
						"machine: %d cores, load average %s at the start of the measurements, %s at the end%n",
						Runtime.getRuntime().availableProcessors(), loadBefore, BenchHost.loadAverage(" / "));
				System.out.printf(
						"GET /api/deck?limit=20 over HTTP: 'assemble' builds a new 200-card deck every call (%d calls); 'paging' is %d calls %d ms apart, 'no pause' %d calls back to back,%n"
								+ "both from an empty deck, the next deck assembled in the background when fewer than 100 cards are left;%n",
						assemblies, pages, thinkMillis, pages);
				System.out.printf(
						"baseline: the plain SQL query (JDBC, same area, preferences and ranking) that excludes swipes with NOT EXISTS, %d runs taking turns with 'assemble'.%n%n",
						assemblies);
				table.print();
				if (errors > 0) {
					System.out.printf("%nerrors: %,d calls of GET /api/deck failed%n", errors);
				}
			}
		}
	}

	/** Seeds the profiles with SeedData; returns the seconds it took. */
	private static double seed(Connection db, long profiles, Instant now) throws SQLException {
		long started = System.nanoTime();
		System.out.printf("seeding %,d profiles...%n", profiles);
		// a bulk load is far faster into a table without secondary indexes, built once
		// after
		execute(db, "ALTER TABLE profiles DROP INDEX idx_profiles_deck, DROP INDEX idx_profiles_geohash");
		SeedData.generate(db, 1, profiles, 42, now, false);
		// the same definitions as swipe-service's V1 and V10 migrations
		execute(db, """
				ALTER TABLE profiles ADD KEY idx_profiles_geohash (geohash),
				    ADD KEY idx_profiles_deck (gender, geohash, birth_date, age_min, age_max, interested_in,
				        max_distance_km, lat, lon, desirability, last_active_at)""");
		execute(db, "ANALYZE TABLE profiles");
		double seconds = (System.nanoTime() - started) / 1e9;
		System.out.printf("seeded in %.0f s%n", seconds);
		return seconds;
	}

	/** {@code pages} calls from an empty deck, {@code thinkMillis} apart. */
	private static Result page(ServiceClient http, String token, UnifiedJedis jedis, String deckKey, int pages,
			long thinkMillis) throws InterruptedException {
		// a refill still running from the last round would append to this one's deck
		Thread.sleep(1_000);
		jedis.del(deckKey);
		return Load.sequence(pages, (call) -> {
			deck(http, token);
			call.stopClock();
			Thread.sleep(thinkMillis);
		});
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
		Object info = jedis.sendCommand(Protocol.Command.COMMAND, "INFO", "BF.RESERVE");
		return (info instanceof List<?> entries && !entries.isEmpty() && entries.get(0) != null)
				? "on RedisBloom (module)" : "on plain Redis bitmaps (no RedisBloom here)";
	}

	private static void execute(Connection db, String sql) throws SQLException {
		try (Statement statement = db.createStatement()) {
			statement.execute(sql);
		}
	}

}
