package io.kindling.swipe.profile;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.kindling.infra.http.Response;
import io.kindling.swipe.geo.Geohash;
import io.kindling.swipe.geo.LocationGrid;
import io.kindling.swipe.swipe.SwipeTestBase;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A user's location moves to another grid cell at most {@code location-changes-per-hour}
 * times an hour (10 by default), counted atomically; past it the whole save is refused
 * with {@code Retry-After}. Moves within a cell are free, and profile cards show the
 * distance between the two cells' centres.
 */
class LocationChangesIT extends SwipeTestBase {

	private static final double LAT = -41.2;

	private static final double LON = -150.3;

	/** About 1.8 km of latitude per step: every step is another cell. */
	private static final double STEP = 0.016;

	@Autowired
	LocationGrid grid;

	@Test
	void theEleventhMoveWithinAnHourIsRefusedWithRetryAfterAndSavesNothing() {
		long ana = newUserId();
		assertThat(put(ana, "Ana", LAT, LON).status()).as("a new profile is no move").isEqualTo(200);
		for (int move = 1; move <= 10; move++) {
			assertThat(put(ana, "Ana", LAT + move * STEP, LON).status()).as("move %d", move).isEqualTo(200);
			this.clock.advance(Duration.ofMinutes(1));
		}

		Response eleventh = put(ana, "Ana the mover", LAT + 11 * STEP, LON);
		assertThat(eleventh.status()).as(eleventh.body()).isEqualTo(429);
		assertThat(eleventh.json().get("type").asString())
			.isEqualTo("https://kindling.io/problems/too-many-location-changes");
		// the first move was made 10 minutes ago: it leaves the hour in 50
		long retryAfter = Long.parseLong(eleventh.header("Retry-After").orElseThrow());
		assertThat(retryAfter).isBetween(49 * 60L, 50 * 60L + 1);
		assertThat(storedName(ana)).isEqualTo("Ana");
		assertThat(storedLat(ana)).isCloseTo(LAT + 10 * STEP, within(1e-6));

		// a move within the cell changes nothing anyone can learn: it is not counted
		double[] sameCell = { LAT + 10 * STEP + 0.0001, LON + 0.0001 };
		assertThat(this.grid.cellOf(sameCell[0], sameCell[1])).isEqualTo(this.grid.cellOf(LAT + 10 * STEP, LON));
		assertThat(put(ana, "Ana", sameCell[0], sameCell[1]).status()).isEqualTo(200);

		this.clock.advance(Duration.ofSeconds(retryAfter));
		assertThat(put(ana, "Ana", LAT + 11 * STEP, LON).status()).isEqualTo(200);
		assertThat(put(ana, "Ana", LAT + 12 * STEP, LON).status()).as("only one move left the hour").isEqualTo(429);
	}

	@Test
	void twentyMovesAtOnceAreCountedOneByOne() throws Exception {
		long ben = newUserId();
		assertThat(put(ben, "Ben", LAT, LON + 1).status()).isEqualTo(200);
		CountDownLatch go = new CountDownLatch(1);
		List<Future<Response>> answers = new ArrayList<>();
		try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
			for (int move = 1; move <= 20; move++) {
				double lat = LAT + move * STEP;
				answers.add(threads.submit(() -> {
					go.await();
					return put(ben, "Ben", lat, LON + 1);
				}));
			}
			go.countDown();
			List<Integer> statuses = new ArrayList<>();
			for (Future<Response> answer : answers) {
				statuses.add(answer.get().status());
			}
			assertThat(statuses).filteredOn((status) -> status == 200).hasSize(10);
			assertThat(statuses).filteredOn((status) -> status != 200).hasSize(10).containsOnly(429);
		}
	}

	@Test
	void aCardShowsTheDistanceBetweenTheCentresOfTheTwoCells() {
		long ana = newUserId();
		long ben = newUserId();
		put(ana, "Ana", LAT, LON + 2);
		put(ben, "Ben", LAT + 0.05, LON + 2.03);
		LocationGrid.Cell anas = this.grid.cellOf(LAT, LON + 2);
		LocationGrid.Cell bens = this.grid.cellOf(LAT + 0.05, LON + 2.03);
		int shown = this.api.get("/api/profiles/" + ana, ben).json().get("distance_km").asInt();
		assertThat(shown)
			.isEqualTo((int) Math.round(Geohash.distanceKm(anas.lat(), anas.lon(), bens.lat(), bens.lon())));
		// ben walks about inside his cell: what ana's card shows him does not move
		for (double nudge : new double[] { -0.003, 0.003 }) {
			double lat = bens.lat() + nudge;
			double lon = bens.lon() - nudge;
			assertThat(this.grid.cellOf(lat, lon)).isEqualTo(bens);
			put(ben, "Ben", lat, lon);
			assertThat(this.api.get("/api/profiles/" + ana, ben).json().get("distance_km").asInt()).isEqualTo(shown);
		}
	}

	private Response put(long userId, String name, double lat, double lon) {
		return this.api.put("/api/profile", userId, String.format(Locale.ROOT, """
				{"display_name":"%s","gender":"WOMAN","interested_in":["MAN"],"birth_date":"1990-01-01",
				 "location":{"lat":%.7f,"lon":%.7f},"age_min":18,"age_max":99,"max_distance_km":100}
				""", name, lat, lon));
	}

	private String storedName(long userId) {
		return this.jdbc.sql("SELECT display_name FROM profiles WHERE user_id = :userId")
			.param("userId", userId)
			.query(String.class)
			.single();
	}

	private double storedLat(long userId) {
		return this.jdbc.sql("SELECT lat FROM profiles WHERE user_id = :userId")
			.param("userId", userId)
			.query(Double.class)
			.single();
	}

}
