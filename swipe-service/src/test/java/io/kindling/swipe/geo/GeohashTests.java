package io.kindling.swipe.geo;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class GeohashTests {

	@Test
	void encodesTheWellKnownExamples() {
		assertThat(Geohash.encode(57.64911, 10.40744, 11)).isEqualTo("u4pruydqqvj");
		assertThat(Geohash.encode(42.6, -5.6, 5)).isEqualTo("ezs42");
	}

	@Test
	void aCellContainsItsPointAndAShorterHashIsItsPrefix() {
		String hash = Geohash.encode(52.52, 13.405, 9);
		double[] bounds = Geohash.bounds(hash);
		assertThat(52.52).isBetween(bounds[0], bounds[1]);
		assertThat(13.405).isBetween(bounds[2], bounds[3]);
		assertThat(Geohash.encode(52.52, 13.405, 5)).isEqualTo(hash.substring(0, 5));
	}

	@Test
	void aCellHasEightNeighboursAcrossTheAntimeridianToo() {
		assertThat(Geohash.cellAndNeighbours("u33dc")).hasSize(9).contains("u33dc").doesNotHaveDuplicates();
		String east = Geohash.encode(0.1, 179.99, 4);
		assertThat(Geohash.cellAndNeighbours(east)).hasSize(9)
			.anySatisfy((cell) -> assertThat(Geohash.bounds(cell)[2]).isEqualTo(-180.0));
	}

	@Test
	void aWiderRadiusNeedsAShorterPrefix() {
		assertThat(Geohash.precisionFor(1)).isGreaterThan(Geohash.precisionFor(50));
		assertThat(Geohash.precisionFor(50)).isGreaterThanOrEqualTo(Geohash.precisionFor(500));
		assertThat(Geohash.distanceKm(52.52, 13.405, 48.8566, 2.3522)).isBetween(870.0, 885.0);
	}

	@Test
	void refusesWhatIsNotALocation() {
		assertThatIllegalArgumentException().isThrownBy(() -> Geohash.encode(91, 0, 9));
		assertThatIllegalArgumentException().isThrownBy(() -> Geohash.bounds("abc"));
	}

}
