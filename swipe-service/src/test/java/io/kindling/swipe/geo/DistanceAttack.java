package io.kindling.swipe.geo;

import java.util.ArrayList;
import java.util.List;

/**
 * The attack published against several dating apps that showed a rounded distance: an
 * attacker places throwaway accounts at points of their choice and reads the distance
 * each is shown to the victim. Along each of a few rays from a rough guess, a binary
 * search finds where the shown distance steps from k to k + 1 km; with a distance
 * computed from exact positions and then rounded, that point lies exactly k + 0.5 km from
 * the victim. Trilateration (least squares over those circles) then gives the victim's
 * position. Against exact positions it lands within metres; against distances between
 * grid cells' centres the circles are not circles, and it cannot do better than the cell.
 * <p>
 * The same attack works on anything that steps at a distance: an attacker who sets their
 * own radius and watches whether the victim is in their deck finds the smallest whole
 * radius that shows the victim ({@link #smallestRadiusKm}); with the radius checked on
 * exact positions, that figure steps from k to k + 1 exactly k km from the victim.
 */
final class DistanceAttack {

	/** The distance in whole km shown to an account placed at this point. */
	@FunctionalInterface
	interface Oracle {

		int shownKm(double lat, double lon);

	}

	record Point(double lat, double lon) {

	}

	private static final double KM_PER_DEGREE = Math.toRadians(1) * 6371.0088;

	private static final int RAYS = 6;

	/** 16 km / 2^17: the search stops at about 12 cm. */
	private static final int BISECTIONS = 17;

	/** Whether the victim is shown to an account with this radius, placed beforehand. */
	@FunctionalInterface
	interface Presence {

		boolean shownWithin(int radiusKm);

	}

	/** Radiuses up to 16 km: the attack stays within a few km of the victim. */
	private static final int MAX_RADIUS_KM = 16;

	private final Oracle oracle;

	private final double stepAt;

	private int probes;

	/**
	 * @param stepAt where the oracle's figure steps from k to k + 1: at k + stepAt km
	 * (0.5 for a distance rounded to whole km, 0 for a radius checked on exact positions)
	 */
	DistanceAttack(Oracle oracle, double stepAt) {
		this.oracle = oracle;
		this.stepAt = stepAt;
	}

	/**
	 * The smallest whole radius at which the victim is shown, by binary search: an oracle
	 * that steps from k to k + 1 at k km ({@code stepAt} 0) when the radius is checked on
	 * exact positions.
	 */
	static int smallestRadiusKm(Presence presence) {
		// not shown within low, shown within high (checked last, when it is the answer)
		int low = 0;
		int high = MAX_RADIUS_KM;
		while (high - low > 1) {
			int mid = (low + high) / 2;
			if (presence.shownWithin(mid)) {
				high = mid;
			}
			else {
				low = mid;
			}
		}
		if (high == MAX_RADIUS_KM && !presence.shownWithin(high)) {
			throw new AssertionError("the victim is not shown even within " + high + " km");
		}
		return high;
	}

	/** How many points the attack probed so far. */
	int probes() {
		return this.probes;
	}

	/** Where the victim is, as the attack finds it, from a guess within a few km. */
	Point locate(Point guess) {
		List<Point> steps = new ArrayList<>();
		List<Double> radii = new ArrayList<>();
		for (int ray = 0; ray < RAYS; ray++) {
			double angle = 2 * Math.PI * ray / RAYS;
			double east = Math.cos(angle);
			double north = Math.sin(angle);
			double near = 0;
			int k = shown(guess, east * near, north * near);
			double far = 0.5;
			while (shown(guess, east * far, north * far) <= k) {
				near = far;
				far *= 2;
			}
			// shown(near) <= k < shown(far): the step from k to k + 1 lies between
			for (int i = 0; i < BISECTIONS; i++) {
				double mid = (near + far) / 2;
				if (shown(guess, east * mid, north * mid) <= k) {
					near = mid;
				}
				else {
					far = mid;
				}
			}
			double at = (near + far) / 2;
			steps.add(offset(guess, east * at, north * at));
			radii.add(k + this.stepAt);
		}
		return trilaterate(guess, steps, radii);
	}

	private int shown(Point origin, double eastKm, double northKm) {
		this.probes++;
		Point at = offset(origin, eastKm, northKm);
		return this.oracle.shownKm(at.lat(), at.lon());
	}

	/**
	 * Gauss-Newton on the great-circle distances: the point whose distance to each step
	 * is closest to that step's radius.
	 */
	static Point trilaterate(Point origin, List<Point> steps, List<Double> radii) {
		double x = 0;
		double y = 0;
		for (Point step : steps) {
			x += eastOf(origin, step) / steps.size();
			y += northOf(origin, step) / steps.size();
		}
		double h = 1e-5;
		for (int iteration = 0; iteration < 100; iteration++) {
			double a11 = 0, a12 = 0, a22 = 0, b1 = 0, b2 = 0;
			for (int i = 0; i < steps.size(); i++) {
				double residual = distance(origin, x, y, steps.get(i)) - radii.get(i);
				double dx = (distance(origin, x + h, y, steps.get(i)) - distance(origin, x - h, y, steps.get(i)))
						/ (2 * h);
				double dy = (distance(origin, x, y + h, steps.get(i)) - distance(origin, x, y - h, steps.get(i)))
						/ (2 * h);
				a11 += dx * dx;
				a12 += dx * dy;
				a22 += dy * dy;
				b1 += dx * residual;
				b2 += dy * residual;
			}
			double determinant = a11 * a22 - a12 * a12;
			if (Math.abs(determinant) < 1e-12) {
				break;
			}
			double stepX = (a22 * b1 - a12 * b2) / determinant;
			double stepY = (a11 * b2 - a12 * b1) / determinant;
			x -= stepX;
			y -= stepY;
			if (Math.hypot(stepX, stepY) < 1e-7) {
				break;
			}
		}
		return offset(origin, x, y);
	}

	private static double distance(Point origin, double eastKm, double northKm, Point to) {
		Point from = offset(origin, eastKm, northKm);
		return Geohash.distanceKm(from.lat(), from.lon(), to.lat(), to.lon());
	}

	static Point offset(Point origin, double eastKm, double northKm) {
		return new Point(origin.lat() + northKm / KM_PER_DEGREE,
				origin.lon() + eastKm / (KM_PER_DEGREE * Math.cos(Math.toRadians(origin.lat()))));
	}

	private static double eastOf(Point origin, Point point) {
		return (point.lon() - origin.lon()) * KM_PER_DEGREE * Math.cos(Math.toRadians(origin.lat()));
	}

	private static double northOf(Point origin, Point point) {
		return (point.lat() - origin.lat()) * KM_PER_DEGREE;
	}

	static double errorKm(Point estimate, Point truth) {
		return Geohash.distanceKm(estimate.lat(), estimate.lon(), truth.lat(), truth.lon());
	}

}
