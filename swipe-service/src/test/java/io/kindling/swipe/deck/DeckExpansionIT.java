package io.kindling.swipe.deck;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import io.kindling.infra.http.Response;
import io.kindling.swipe.geo.Geohash;
import io.kindling.swipe.geo.LocationGrid;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpStatus;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A deck that runs dry goes on beyond the viewer's own preferences when she asked for it
 * ({@code expand_when_out}): first the nearest people beyond her distance, up to
 * {@code deck.max-expand-km}, then people up to five years outside her age range, every
 * such card marked {@code outside_preferences}; never anyone whose own preferences leave
 * her out, anyone she swiped or anyone blocked.
 */
class DeckExpansionIT extends DeckTestSupport {

	/** One degree of latitude, in km. */
	private static final double KM_PER_DEGREE = 111.2;

	@Autowired
	private LocationGrid grid;

	@Test
	void anExpandingDeckGoesBeyondTheDistanceThenTheAgeRangeNearestFirstAndMarksThoseCards() {
		double[] at = place(61.12, 10.47);
		long viewer = 9_300_000;
		// a woman of 30 looking for men of 25 to 35 within 10 km, who asks for more
		putProfile(viewer, at, 10, true);
		assertThat(this.json.readTree(get(viewer, "/api/profile").body()).get("expand_when_out").asBoolean()).isTrue();

		save(Person.man(viewer + 1, at[0], at[1]).desirability(1200));
		save(Person.man(viewer + 2, north(at, 3), at[1]).desirability(1100));
		save(Person.man(viewer + 3, north(at, 30), at[1]).maxDistance(20_000));
		save(Person.man(viewer + 4, north(at, 120), at[1]).maxDistance(20_000));
		save(Person.man(viewer + 5, north(at, 450), at[1]).maxDistance(20_000));
		save(Person.man(viewer + 6, north(at, 4), at[1]).age(38));
		save(Person.man(viewer + 7, north(at, 60), at[1]).age(21).maxDistance(20_000));
		// never: beyond 500 km, six years too old, his own radius, his own age range,
		// swiped, blocked
		save(Person.man(viewer + 11, north(at, 560), at[1]).maxDistance(20_000));
		save(Person.man(viewer + 12, north(at, 2), at[1]).age(41));
		save(Person.man(viewer + 13, north(at, 40), at[1]).maxDistance(20));
		save(Person.man(viewer + 14, north(at, 45), at[1]).maxDistance(20_000).ages(40, 50));
		save(Person.man(viewer + 15, north(at, 50), at[1]).maxDistance(20_000));
		save(Person.man(viewer + 16, north(at, 55), at[1]).maxDistance(20_000));
		swipe(viewer, viewer + 15, "PASS");
		assertThat(postJson(viewer + 16, "/api/blocks", "{\"user_id\": " + viewer + "}").status())
			.isEqualTo(HttpStatus.CREATED.value());

		List<JsonNode> cards = page(viewer, 100);

		assertThat(ids(cards)).containsExactly(viewer + 1, viewer + 2, viewer + 3, viewer + 4, viewer + 5, viewer + 6,
				viewer + 7);
		assertThat(cards.subList(0, 2)).noneMatch((card) -> card.get("outside_preferences").asBoolean());
		assertThat(cards.subList(2, 7)).allMatch((card) -> card.get("outside_preferences").asBoolean());
		assertThat(cards.get(4).get("distance_km").asLong()).isBetween(445L, 455L);
	}

	@Test
	void withoutTheFlagTheDeckEndsWithThePeopleWithinHerPreferences() {
		double[] at = place(62.47, 6.15);
		long viewer = 9_310_000;
		putProfile(viewer, at, 10, false);
		assertThat(this.json.readTree(get(viewer, "/api/profile").body()).get("expand_when_out").asBoolean()).isFalse();
		save(Person.man(viewer + 1, at[0], at[1]));
		save(Person.man(viewer + 2, north(at, 30), at[1]));
		save(Person.man(viewer + 3, north(at, 2), at[1]).age(38));

		List<JsonNode> cards = page(viewer, 100);

		assertThat(ids(cards)).containsExactly(viewer + 1);
		assertThat(cards.get(0).get("outside_preferences").asBoolean()).isFalse();
	}

	@Test
	void nobodyIsShownToSomeoneBeyondTheirOwnPreferences() {
		double[] at = place(63.83, 20.26);
		long viewer = 9_320_000;
		putProfile(viewer, at, 10, true);
		// he keeps to 10 km: she is 80 km away, so neither sees the other, flag or not
		long nearMinded = viewer + 1;
		save(Person.man(nearMinded, north(at, 80), at[1]).maxDistance(10));

		assertThat(ids(page(viewer, 100))).doesNotContain(nearMinded);
		assertThat(ids(page(nearMinded, 100))).doesNotContain(viewer);
	}

	/**
	 * The query beyond places everyone on the grid in SQL: it must keep exactly whom
	 * {@link LocationGrid} keeps. Each man's radius is drawn close to his distance from
	 * her, so that for some of them the exact positions and the cells' centres disagree.
	 */
	@Test
	void theQueryBeyondKeepsExactlyWhomTheGridKeeps() {
		double[] at = place(-25.3, 75.6);
		long viewer = 9_330_000;
		putProfile(viewer, at, 1, true);
		Random random = new Random(34);
		List<long[]> kept = new ArrayList<>();
		int disagreeing = 0;
		for (int i = 1; i <= 40; i++) {
			double km = 5 + 40 * random.nextDouble();
			double bearing = 2 * Math.PI * random.nextDouble();
			double lat = at[0] + km * Math.cos(bearing) / KM_PER_DEGREE;
			double lon = at[1] + km * Math.sin(bearing) / (KM_PER_DEGREE * Math.cos(Math.toRadians(at[0])));
			int radius = (int) Math.max(1, Math.round(km + random.nextGaussian()));
			save(Person.man(viewer + i, lat, lon).maxDistance(radius));
			double centres = this.grid.distanceKm(at[0], at[1], lat, lon);
			if (centres <= radius) {
				kept.add(new long[] { viewer + i, Math.round(centres * 1_000_000) });
			}
			if ((Geohash.distanceKm(at[0], at[1], lat, lon) <= radius) != (centres <= radius)) {
				disagreeing++;
			}
		}
		kept.sort(Comparator.comparingLong((long[] person) -> person[1]).thenComparingLong((person) -> person[0]));

		List<JsonNode> cards = page(viewer, 100);

		assertThat(disagreeing).as("men whom exact positions would decide otherwise").isPositive();
		assertThat(ids(cards)).containsExactlyElementsOf(kept.stream().map((person) -> person[0]).toList());
		assertThat(cards).allMatch((card) -> card.get("outside_preferences").asBoolean());
	}

	private void putProfile(long userId, double[] at, int maxDistanceKm, boolean expandWhenOut) {
		Response put = client().send("PUT", "/api/profile", token(userId), String.format(Locale.ROOT, """
				{"display_name": "Viewer", "gender": "WOMAN", "interested_in": ["MAN"],
				 "birth_date": "%s", "location": {"lat": %f, "lon": %f},
				 "age_min": 25, "age_max": 35, "max_distance_km": %d, "expand_when_out": %b}
				""", today().minusYears(30).minusMonths(6), at[0], at[1], maxDistanceKm, expandWhenOut));
		assertThat(put.status()).as(put.body()).isEqualTo(HttpStatus.OK.value());
		assertThat(this.json.readTree(put.body()).get("expand_when_out").asBoolean()).isEqualTo(expandWhenOut);
	}

	private static double north(double[] at, double km) {
		return at[0] + km / KM_PER_DEGREE;
	}

}
