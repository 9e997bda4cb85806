package io.kindling.swipe.geo;

import java.util.Random;

import io.kindling.swipe.geo.LocationGrid.Cell;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class LocationGridTests {

	private final LocationGrid grid = new LocationGrid(new GridProperties(1.0));

	@Test
	void cellsAreAboutOneKilometreSquareFromTheEquatorToTheSubarctic() {
		for (double lat : new double[] { 0.3, -33.9, 52.52, 69.6 }) {
			Cell cell = this.grid.cellOf(lat, 13.4);
			Cell north = this.grid.cellOf(cell.lat() + 0.009, cell.lon());
			Cell east = this.grid.cellOf(cell.lat(), cell.lon() + 0.009 / Math.cos(Math.toRadians(lat)));
			assertThat(north.row()).isEqualTo(cell.row() + 1);
			// the row above is cut into columns of its own: its centres are not due north
			assertThat(Geohash.distanceKm(cell.lat(), cell.lon(), north.lat(), cell.lon())).as("height at %s", lat)
				.isCloseTo(1.0, within(0.01));
			assertThat(east.column()).isEqualTo(cell.column() + 1);
			assertThat(Geohash.distanceKm(cell.lat(), cell.lon(), east.lat(), east.lon())).as("width at %s", lat)
				.isCloseTo(1.0, within(0.01));
		}
	}

	@Test
	void everyPointIsWithinHalfACellsDiagonalOfItsCellsCentre() {
		Random random = new Random(28);
		for (int i = 0; i < 100_000; i++) {
			double lat = -80 + 160 * random.nextDouble();
			double lon = -180 + 360 * random.nextDouble();
			Cell cell = this.grid.cellOf(lat, lon);
			assertThat(Geohash.distanceKm(lat, lon, cell.lat(), cell.lon()))
				.isLessThanOrEqualTo(Math.sqrt(2) / 2 + 0.01);
			assertThat(this.grid.cellOf(cell.lat(), cell.lon())).isEqualTo(cell);
		}
	}

	@Test
	void theShownDistanceDependsOnTheTwoCellsAlone() {
		Cell one = this.grid.cellOf(52.52, 13.405);
		Cell other = this.grid.cellOf(52.50, 13.42);
		int shown = this.grid.shownDistanceKm(one.lat(), one.lon(), other.lat(), other.lon());
		Random random = new Random(29);
		for (int i = 0; i < 1000; i++) {
			double[] a = inside(one, random);
			double[] b = inside(other, random);
			assertThat(this.grid.cellOf(a[0], a[1])).isEqualTo(one);
			assertThat(this.grid.cellOf(b[0], b[1])).isEqualTo(other);
			assertThat(this.grid.shownDistanceKm(a[0], a[1], b[0], b[1])).isEqualTo(shown);
		}
		assertThat(shown)
			.isEqualTo((int) Math.round(Geohash.distanceKm(one.lat(), one.lon(), other.lat(), other.lon())));
	}

	@Test
	void twoPeopleInOneCellAreShownOneKilometreApart() {
		Cell cell = this.grid.cellOf(52.52, 13.405);
		assertThat(this.grid.shownDistanceKm(cell.lat(), cell.lon(), cell.lat(), cell.lon())).isOne();
	}

	@Test
	void theAntimeridianAndThePolesHaveCellsToo() {
		assertThat(this.grid.cellOf(10, 180)).isEqualTo(this.grid.cellOf(10, -180));
		assertThat(this.grid.cellOf(90, 0).lat()).isLessThan(90);
		assertThat(this.grid.cellOf(-90, 0).lat()).isGreaterThan(-90);
		assertThat(this.grid.shownDistanceKm(89.999, 0, 89.999, 180)).isLessThanOrEqualTo(2);
	}

	@Test
	void aCoarserSettingMakesCoarserCells() {
		LocationGrid coarse = new LocationGrid(new GridProperties(5.0));
		Cell cell = coarse.cellOf(52.52, 13.405);
		Cell north = coarse.cellOf(cell.lat() + 0.045, cell.lon());
		Cell east = coarse.cellOf(cell.lat(), cell.lon() + 0.045 / Math.cos(Math.toRadians(cell.lat())));
		assertThat(north.row()).isEqualTo(cell.row() + 1);
		assertThat(Geohash.distanceKm(cell.lat(), cell.lon(), north.lat(), cell.lon())).isCloseTo(5.0, within(0.05));
		assertThat(east.column()).isEqualTo(cell.column() + 1);
		assertThat(Geohash.distanceKm(cell.lat(), cell.lon(), east.lat(), east.lon())).isCloseTo(5.0, within(0.05));
	}

	/** A random point of the cell, kept off its edges. */
	private double[] inside(Cell cell, Random random) {
		double halfHeight = 0.45 / 111.195;
		double halfWidth = halfHeight / Math.cos(Math.toRadians(cell.lat()));
		return new double[] { cell.lat() + (2 * random.nextDouble() - 1) * halfHeight,
				cell.lon() + (2 * random.nextDouble() - 1) * halfWidth };
	}

}
