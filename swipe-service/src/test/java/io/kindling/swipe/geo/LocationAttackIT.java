package io.kindling.swipe.geo;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import io.kindling.infra.http.Response;
import io.kindling.swipe.geo.DistanceAttack.Point;
import io.kindling.swipe.swipe.SwipeTestBase;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The published trilateration attack ({@link DistanceAttack}) run over HTTP against
 * several victims, once through {@code GET /api/profiles/{id}}, once through deck cards,
 * and once through who is in a deck at all (a binary search on the attacker's own
 * {@code max_distance_km} for the smallest radius that shows the victim), each probe a
 * throwaway account placed at a point of the attacker's choice: it must not locate anyone
 * more precisely than a grid cell (about 1 km).
 */
class LocationAttackIT extends SwipeTestBase {

	/** Open ocean far from every other test's people, so decks hold only this test's. */
	private static final Point AREA = new Point(-52.31, -140.47);

	@Test
	void theAttackThroughProfileCardsLocatesNobodyBetterThanTheirCell() {
		List<Double> errors = attack(7, this::shownOnProfileCard);
		assertThat(median(errors)).as("median error, km").isGreaterThanOrEqualTo(0.15);
	}

	@Test
	void theAttackThroughDeckCardsLocatesNobodyBetterThanTheirCell() {
		List<Double> errors = attack(3, this::shownOnDeckCard);
		assertThat(median(errors)).as("median error, km").isGreaterThanOrEqualTo(0.15);
	}

	/**
	 * With the radius checked on exact positions (before the deck decided membership
	 * between cell centres) this attack located 3 victims a median 2 mm off.
	 */
	@Test
	void theRadiusProbeThroughTheDeckLocatesNobodyBetterThanTheirCell() {
		List<Double> errors = attack(3, this::smallestRadiusShowing, 0);
		assertThat(median(errors)).as("median error, km").isGreaterThanOrEqualTo(0.15);
	}

	interface Probe {

		int shownKm(long victim, double lat, double lon);

	}

	private List<Double> attack(int victims, Probe probe) {
		return attack(victims, probe, 0.5);
	}

	/**
	 * @param stepAt where the figure the probe reads steps from k to k + 1 km, were it
	 * computed from exact positions
	 */
	private List<Double> attack(int victims, Probe probe, double stepAt) {
		Random random = new Random(28);
		List<Double> errors = new ArrayList<>();
		for (int i = 0; i < victims; i++) {
			// the attacker knows the neighbourhood: within 2 km of the guess
			Point guess = DistanceAttack.offset(AREA, 40 * i, 0);
			Point truth = DistanceAttack.offset(guess, 4 * random.nextDouble() - 2, 4 * random.nextDouble() - 2);
			long victim = newUserId();
			place(victim, "WOMAN", "MAN", truth.lat(), truth.lon());
			DistanceAttack attack = new DistanceAttack((lat, lon) -> probe.shownKm(victim, lat, lon), stepAt);
			Point estimate = attack.locate(guess);
			double error = DistanceAttack.errorKm(estimate, truth);
			errors.add(error);
			System.out.printf(Locale.ROOT,
					"location attack: victim %d located %.3f m off, with %d throwaway accounts%n", i, error * 1000,
					attack.probes());
		}
		System.out.printf(Locale.ROOT, "location attack: median error %.3f m over %d victims%n", median(errors) * 1000,
				victims);
		return errors;
	}

	private int shownOnProfileCard(long victim, double lat, double lon) {
		long attacker = newUserId();
		place(attacker, "MAN", "WOMAN", lat, lon);
		Response card = this.api.get("/api/profiles/" + victim, attacker);
		assertThat(card.status()).as(card.body()).isEqualTo(200);
		return card.json().get("distance_km").asInt();
	}

	private int shownOnDeckCard(long victim, double lat, double lon) {
		long attacker = newUserId();
		place(attacker, "MAN", "WOMAN", lat, lon);
		Response deck = this.api.get("/api/deck?limit=100", attacker);
		assertThat(deck.status()).as(deck.body()).isEqualTo(200);
		for (JsonNode card : deck.json().get("cards")) {
			if (card.get("user_id").asLong() == victim) {
				return card.get("distance_km").asInt();
			}
		}
		throw new AssertionError("victim " + victim + " not in the deck of an attacker at " + lat + "," + lon);
	}

	/**
	 * The smallest radius (whole km) at which a throwaway account placed here has the
	 * victim in its deck: each try a new account, so no stored deck answers for an older
	 * radius.
	 */
	private int smallestRadiusShowing(long victim, double lat, double lon) {
		return DistanceAttack.smallestRadiusKm((radiusKm) -> {
			long attacker = newUserId();
			place(attacker, "MAN", "WOMAN", lat, lon, radiusKm);
			Response deck = this.api.get("/api/deck?limit=100", attacker);
			assertThat(deck.status()).as(deck.body()).isEqualTo(200);
			for (JsonNode card : deck.json().get("cards")) {
				if (card.get("user_id").asLong() == victim) {
					return true;
				}
			}
			return false;
		});
	}

	private void place(long userId, String gender, String interestedIn, double lat, double lon) {
		place(userId, gender, interestedIn, lat, lon, 100);
	}

	private void place(long userId, String gender, String interestedIn, double lat, double lon, int maxDistanceKm) {
		Response put = this.api.put("/api/profile", userId, """
				{"display_name":"Probe","gender":"%s","interested_in":["%s"],"birth_date":"1990-01-01",
				 "location":{"lat":%s,"lon":%s},"age_min":18,"age_max":99,"max_distance_km":%d}
				""".formatted(gender, interestedIn, lat, lon, maxDistanceKm));
		assertThat(put.status()).as(put.body()).isEqualTo(200);
	}

	private static double median(List<Double> values) {
		List<Double> sorted = values.stream().sorted().toList();
		int middle = sorted.size() / 2;
		return (sorted.size() % 2 == 1) ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
	}

}
