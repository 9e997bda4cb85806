package io.kindling.swipe.deck;

import java.time.LocalDate;
import java.time.Period;
import java.util.Set;

import io.kindling.swipe.geo.LocationGrid;
import io.kindling.swipe.profile.Gender;
import io.kindling.swipe.profile.Profile;

/**
 * What the deck needs to know of a possible card: preferences and place. The place is the
 * exact one as stored; every rule below looks at it only through the centre of its grid
 * cell ({@link LocationGrid}).
 */
record Candidate(long userId, String displayName, Gender gender, Set<Gender> interestedIn, LocalDate birthDate,
		double lat, double lon, int ageMin, int ageMax, int maxDistanceKm) {

	/** How far past the viewer's age range an expanding deck goes. */
	static final int AGE_SLACK_YEARS = 5;

	int ageOn(LocalDate day) {
		return Period.between(this.birthDate, day).getYears();
	}

	/**
	 * The one distance the deck uses, for both people's radius, for the order of an
	 * expanding deck and for the card: between the centres of the two people's grid
	 * cells, so that whether someone is in a deck at all says no more than the figure on
	 * the card. Decided on exact positions, a radius of k km would be a circle around the
	 * viewer's exact position that an attacker moves until the victim drops out.
	 */
	double distanceKm(Profile viewer, LocationGrid grid) {
		return grid.distanceKm(viewer.lat(), viewer.lon(), this.lat, this.lon);
	}

	/**
	 * Both sides' gender, age and distance preferences hold: the viewer would pick this
	 * person and this person would pick the viewer.
	 */
	boolean suits(Profile viewer, LocalDate today, LocationGrid grid) {
		return fitFor(viewer, today, 0, grid) == Fit.WITHIN;
	}

	/**
	 * Where this person stands for the viewer. This person's own preferences (gender, the
	 * viewer's age, the distance) always hold in full; only the viewer's distance and age
	 * preferences are widened, up to {@code maxExpandKm} and {@link #AGE_SLACK_YEARS}.
	 */
	Fit fitFor(Profile viewer, LocalDate today, int maxExpandKm, LocationGrid grid) {
		int age = ageOn(today);
		int viewerAge = viewer.ageOn(today);
		double distance = distanceKm(viewer, grid);
		boolean theyWouldPick = this.interestedIn.contains(viewer.gender()) && viewerAge >= this.ageMin
				&& viewerAge <= this.ageMax && distance <= this.maxDistanceKm;
		if (this.userId == viewer.userId() || !theyWouldPick || !viewer.interestedIn().contains(this.gender)) {
			return Fit.NONE;
		}
		boolean ageWithin = age >= viewer.ageMin() && age <= viewer.ageMax();
		if (ageWithin && distance <= viewer.maxDistanceKm()) {
			return Fit.WITHIN;
		}
		if (distance > Math.max(maxExpandKm, viewer.maxDistanceKm())) {
			return Fit.NONE;
		}
		if (ageWithin) {
			return Fit.BEYOND_DISTANCE;
		}
		boolean ageNear = age >= viewer.ageMin() - AGE_SLACK_YEARS && age <= viewer.ageMax() + AGE_SLACK_YEARS;
		return ageNear ? Fit.BEYOND_AGE : Fit.NONE;
	}

	/**
	 * How a candidate fits the viewer's preferences, in the order an expanding deck shows
	 * them.
	 */
	enum Fit {

		/** Within both sides' preferences. */
		WITHIN,
		/** Within the viewer's age range, beyond the viewer's distance. */
		BEYOND_DISTANCE,
		/** Up to five years outside the viewer's age range. */
		BEYOND_AGE,
		/** Not to be shown. */
		NONE

	}

}
