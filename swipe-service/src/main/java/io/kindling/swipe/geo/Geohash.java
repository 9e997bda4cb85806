package io.kindling.swipe.geo;

import java.util.ArrayList;
import java.util.List;

/**
 * Geohash cells (base 32, interleaved longitude/latitude bits): a shorter prefix is a
 * larger cell, so "near" becomes "shares a prefix with one of nine cells".
 */
public final class Geohash {

	/** The precision stored with a profile: cells of about 4.8 m × 4.8 m. */
	public static final int STORED_PRECISION = 9;

	private static final String BASE32 = "0123456789bcdefghjkmnpqrstuvwxyz";

	private static final double EARTH_RADIUS_KM = 6371.0088;

	private Geohash() {
	}

	public static String encode(double lat, double lon, int precision) {
		if (lat < -90 || lat > 90 || lon < -180 || lon > 180 || Double.isNaN(lat) || Double.isNaN(lon)) {
			throw new IllegalArgumentException("not a location: " + lat + "," + lon);
		}
		if (precision < 1 || precision > 12) {
			throw new IllegalArgumentException("geohash precision must be 1..12: " + precision);
		}
		double latMin = -90, latMax = 90, lonMin = -180, lonMax = 180;
		StringBuilder hash = new StringBuilder(precision);
		boolean lonBit = true;
		int bits = 0;
		int value = 0;
		while (hash.length() < precision) {
			if (lonBit) {
				double mid = (lonMin + lonMax) / 2;
				if (lon >= mid) {
					value = (value << 1) | 1;
					lonMin = mid;
				}
				else {
					value <<= 1;
					lonMax = mid;
				}
			}
			else {
				double mid = (latMin + latMax) / 2;
				if (lat >= mid) {
					value = (value << 1) | 1;
					latMin = mid;
				}
				else {
					value <<= 1;
					latMax = mid;
				}
			}
			lonBit = !lonBit;
			if (++bits == 5) {
				hash.append(BASE32.charAt(value));
				bits = 0;
				value = 0;
			}
		}
		return hash.toString();
	}

	/** The cell as {@code {latMin, latMax, lonMin, lonMax}}. */
	public static double[] bounds(String geohash) {
		double latMin = -90, latMax = 90, lonMin = -180, lonMax = 180;
		boolean lonBit = true;
		for (int i = 0; i < geohash.length(); i++) {
			int value = BASE32.indexOf(geohash.charAt(i));
			if (value < 0) {
				throw new IllegalArgumentException("not a geohash: " + geohash);
			}
			for (int bit = 4; bit >= 0; bit--) {
				boolean set = ((value >> bit) & 1) == 1;
				if (lonBit) {
					double mid = (lonMin + lonMax) / 2;
					if (set) {
						lonMin = mid;
					}
					else {
						lonMax = mid;
					}
				}
				else {
					double mid = (latMin + latMax) / 2;
					if (set) {
						latMin = mid;
					}
					else {
						latMax = mid;
					}
				}
				lonBit = !lonBit;
			}
		}
		return new double[] { latMin, latMax, lonMin, lonMax };
	}

	/**
	 * The cell and its eight neighbours (fewer at the poles), the usual search area for
	 * "near this cell".
	 */
	public static List<String> cellAndNeighbours(String geohash) {
		double[] b = bounds(geohash);
		double latStep = b[1] - b[0];
		double lonStep = b[3] - b[2];
		double lat = (b[0] + b[1]) / 2;
		double lon = (b[2] + b[3]) / 2;
		List<String> cells = new ArrayList<>(9);
		for (int dLat = -1; dLat <= 1; dLat++) {
			double neighbourLat = lat + dLat * latStep;
			if (neighbourLat < -90 || neighbourLat > 90) {
				continue;
			}
			for (int dLon = -1; dLon <= 1; dLon++) {
				double neighbourLon = lon + dLon * lonStep;
				// the antimeridian wraps around
				if (neighbourLon > 180) {
					neighbourLon -= 360;
				}
				else if (neighbourLon < -180) {
					neighbourLon += 360;
				}
				String cell = encode(neighbourLat, neighbourLon, geohash.length());
				if (!cells.contains(cell)) {
					cells.add(cell);
				}
			}
		}
		return cells;
	}

	/**
	 * The shortest prefix length whose cell is at least {@code radiusKm} tall and wide,
	 * so the cell and its neighbours cover the radius.
	 */
	public static int precisionFor(double radiusKm) {
		for (int precision = 9; precision > 1; precision--) {
			double[] b = bounds(encode(0, 0, precision));
			double heightKm = Math.toRadians(b[1] - b[0]) * EARTH_RADIUS_KM;
			double widthKm = Math.toRadians(b[3] - b[2]) * EARTH_RADIUS_KM;
			if (Math.min(heightKm, widthKm) >= radiusKm) {
				return precision;
			}
		}
		return 1;
	}

	/** Great-circle distance (haversine). */
	public static double distanceKm(double lat1, double lon1, double lat2, double lon2) {
		double dLat = Math.toRadians(lat2 - lat1);
		double dLon = Math.toRadians(lon2 - lon1);
		double a = Math.sin(dLat / 2) * Math.sin(dLat / 2) + Math.cos(Math.toRadians(lat1))
				* Math.cos(Math.toRadians(lat2)) * Math.sin(dLon / 2) * Math.sin(dLon / 2);
		return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
	}

}
