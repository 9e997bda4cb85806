package io.kindling.swipe.geo;

import org.springframework.stereotype.Component;

/**
 * The one place a distance between two people is computed for anyone to see (profile
 * cards, deck cards, and whatever shows one next). A distance computed from exact
 * positions and then rounded still locates a person to the metre (three throwaway
 * accounts find where the shown figure steps from k to k + 1 km, each such point exactly
 * k + 0.5 km away), so both positions are first snapped to the centre of their grid cell,
 * and only the distance between the two centres is rounded: the figure then says nothing
 * finer than which cell someone is in.
 * <p>
 * The grid: rows of equal height ({@code location-cell-km} of latitude), each cut into as
 * many equal columns as make them about as wide at the row's middle latitude, so a cell
 * is close to a square of that side everywhere but at the poles.
 */
@Component
public class LocationGrid {

	/** The radius {@link Geohash#distanceKm} uses. */
	public static final double EARTH_RADIUS_KM = 6371.0088;

	private final double cellKm;

	private final int rows;

	private final double rowHeight;

	public LocationGrid(GridProperties properties) {
		this.cellKm = properties.locationCellKm();
		this.rows = Math.max(1, (int) Math.round(Math.PI * EARTH_RADIUS_KM / this.cellKm));
		this.rowHeight = 180.0 / this.rows;
	}

	/** The side of a cell, km. */
	public double cellKm() {
		return this.cellKm;
	}

	/**
	 * A cell's diagonal, with a hair to spare: outside the polar caps no point is further
	 * than half of it from its cell's centre, so the distance between two people's
	 * centres is within this of the distance between them. A search that must find
	 * everyone whose centre is within k km reaches k plus this.
	 */
	public double diagonalKm() {
		return this.cellKm * (Math.sqrt(2) + 0.02);
	}

	/**
	 * How many rows of cells there are from pole to pole, for a query that places people
	 * on the grid as {@link #cellOf} does.
	 */
	public int rows() {
		return this.rows;
	}

	/** A cell of the grid, by its row and column, with its centre. */
	public record Cell(int row, int column, double lat, double lon) {

	}

	public Cell cellOf(double lat, double lon) {
		if (!(lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180)) {
			throw new IllegalArgumentException("not a location: " + lat + "," + lon);
		}
		int row = Math.min(this.rows - 1, (int) Math.floor((lat + 90) / this.rowHeight));
		double centreLat = -90 + (row + 0.5) * this.rowHeight;
		int columns = Math.max(1,
				(int) Math.round(2 * Math.PI * EARTH_RADIUS_KM * Math.cos(Math.toRadians(centreLat)) / this.cellKm));
		double columnWidth = 360.0 / columns;
		// +180 and -180 are the same meridian: both in column 0
		int column = Math.floorMod((int) Math.floor((lon + 180) / columnWidth), columns);
		return new Cell(row, column, centreLat, -180 + (column + 0.5) * columnWidth);
	}

	/**
	 * The distance one person is shown to another: whole kilometres between the centres
	 * of their cells, at least 1 (two people in one cell are "1 km" apart).
	 */
	public int shownDistanceKm(double lat1, double lon1, double lat2, double lon2) {
		return (int) Math.max(1, Math.round(distanceKm(lat1, lon1, lat2, lon2)));
	}

	/**
	 * The distance between the centres of the two points' cells, unrounded: for ordering
	 * people by distance in what someone is shown, which must say no more than the
	 * figure.
	 */
	public double distanceKm(double lat1, double lon1, double lat2, double lon2) {
		Cell one = cellOf(lat1, lon1);
		Cell other = cellOf(lat2, lon2);
		return Geohash.distanceKm(one.lat(), one.lon(), other.lat(), other.lon());
	}

}
