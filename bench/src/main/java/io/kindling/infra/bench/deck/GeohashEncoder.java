package io.kindling.infra.bench.deck;

import java.util.ArrayList;
import java.util.List;

/** Geohash encoding for generated profiles (the service has its own, richer one). */
final class GeohashEncoder {

	private static final String BASE32 = "0123456789bcdefghjkmnpqrstuvwxyz";

	private GeohashEncoder() {
	}

	static String encode(double lat, double lon, int precision) {
		double latMin = -90, latMax = 90, lonMin = -180, lonMax = 180;
		StringBuilder hash = new StringBuilder(precision);
		boolean lonBit = true;
		int bits = 0;
		int value = 0;
		while (hash.length() < precision) {
			if (lonBit) {
				double mid = (lonMin + lonMax) / 2;
				value = (value << 1) | ((lon >= mid) ? 1 : 0);
				if (lon >= mid) {
					lonMin = mid;
				}
				else {
					lonMax = mid;
				}
			}
			else {
				double mid = (latMin + latMax) / 2;
				value = (value << 1) | ((lat >= mid) ? 1 : 0);
				if (lat >= mid) {
					latMin = mid;
				}
				else {
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

	/** The cell and its eight neighbours, found by stepping one cell size each way. */
	static List<String> cellAndNeighbours(double lat, double lon, int precision) {
		int lonBits = (5 * precision + 1) / 2;
		int latBits = 5 * precision / 2;
		double latStep = 180 / Math.pow(2, latBits);
		double lonStep = 360 / Math.pow(2, lonBits);
		// from the centre of the viewer's cell, as the service steps
		lat = Math.floor((lat + 90) / latStep) * latStep - 90 + latStep / 2;
		lon = Math.floor((lon + 180) / lonStep) * lonStep - 180 + lonStep / 2;
		List<String> cells = new ArrayList<>();
		for (int dLat = -1; dLat <= 1; dLat++) {
			for (int dLon = -1; dLon <= 1; dLon++) {
				String cell = encode(Math.max(-89.99, Math.min(89.99, lat + dLat * latStep)),
						((lon + dLon * lonStep + 540) % 360) - 180, precision);
				if (!cells.contains(cell)) {
					cells.add(cell);
				}
			}
		}
		return cells;
	}

}
