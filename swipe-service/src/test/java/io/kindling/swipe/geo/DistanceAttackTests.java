package io.kindling.swipe.geo;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.Function;

import io.kindling.swipe.geo.DistanceAttack.Point;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The attacks of {@link LocationAttackIT} are real ones: given a distance computed from
 * exact positions and then rounded, as the service once showed, or a radius checked on
 * exact positions, as the deck once did, they find each victim to within metres. So their
 * failing against the service is the service's doing. Against the distance between cell
 * centres ({@link LocationGrid}) they miss by the cell.
 */
class DistanceAttackTests {

	private static final LocationGrid GRID = new LocationGrid(new GridProperties(1.0));

	@Test
	void roundingADistanceBetweenExactPositionsGivesTheVictimAwayToTheMetre() {
		List<Double> errors = attack(28, 20, 0.5, (truth) -> (lat,
				lon) -> (int) Math.max(1, Math.round(Geohash.distanceKm(lat, lon, truth.lat(), truth.lon()))));
		assertThat(errors).as("errors, km").allSatisfy((error) -> assertThat(error).isLessThan(0.005));
	}

	@Test
	void aDistanceBetweenCellCentresLocatesNobodyBetterThanTheirCell() {
		List<Double> errors = attack(28, 40, 0.5,
				(truth) -> (lat, lon) -> GRID.shownDistanceKm(lat, lon, truth.lat(), truth.lon()));
		assertThat(median("cell centres", errors)).as("median error, km").isGreaterThanOrEqualTo(0.15);
	}

	@Test
	void probingARadiusCheckedOnExactPositionsGivesTheVictimAwayToTheMetre() {
		List<Double> errors = attack(34, 20, 0, (truth) -> (lat, lon) -> DistanceAttack
			.smallestRadiusKm((radiusKm) -> Geohash.distanceKm(lat, lon, truth.lat(), truth.lon()) <= radiusKm));
		assertThat(errors).as("errors, km").allSatisfy((error) -> assertThat(error).isLessThan(0.005));
	}

	@Test
	void probingARadiusCheckedBetweenCellCentresLocatesNobodyBetterThanTheirCell() {
		List<Double> errors = attack(34, 40, 0, (truth) -> (lat, lon) -> DistanceAttack
			.smallestRadiusKm((radiusKm) -> GRID.distanceKm(lat, lon, truth.lat(), truth.lon()) <= radiusKm));
		assertThat(median("radius probe, cell centres", errors)).as("median error, km").isGreaterThanOrEqualTo(0.15);
	}

	/**
	 * The attack against victims anywhere between 60° S and 60° N, each within 2 km of
	 * the attacker's guess: how far off it lands, km, in the victims' order.
	 * @param stepAt where the oracle's figure steps from k to k + 1 km, were it exact
	 * @param oracleFor what the attacker reads, given where the victim truly is
	 */
	private static List<Double> attack(long seed, int victims, double stepAt,
			Function<Point, DistanceAttack.Oracle> oracleFor) {
		Random random = new Random(seed);
		List<Double> errors = new ArrayList<>();
		for (int i = 0; i < victims; i++) {
			Point guess = new Point(-60 + 120 * random.nextDouble(), -180 + 360 * random.nextDouble());
			Point truth = DistanceAttack.offset(guess, 4 * random.nextDouble() - 2, 4 * random.nextDouble() - 2);
			DistanceAttack attack = new DistanceAttack(oracleFor.apply(truth), stepAt);
			errors.add(DistanceAttack.errorKm(attack.locate(guess), truth));
		}
		return errors;
	}

	private static double median(String what, List<Double> errors) {
		List<Double> sorted = errors.stream().sorted().toList();
		int n = sorted.size();
		System.out.printf(Locale.ROOT, "%s: attack error p10 %.0f m, median %.0f m, p90 %.0f m%n", what,
				sorted.get(n / 10) * 1000, sorted.get(n / 2) * 1000, sorted.get(n * 9 / 10) * 1000);
		return sorted.get(n / 2);
	}

}
