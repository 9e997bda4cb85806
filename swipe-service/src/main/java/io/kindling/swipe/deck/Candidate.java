package io.kindling.swipe.deck;

import java.time.LocalDate;
import java.time.Period;
import java.util.Set;

import io.kindling.swipe.geo.Geohash;
import io.kindling.swipe.profile.Gender;
import io.kindling.swipe.profile.Profile;

/** What the deck needs to know of a possible card: preferences, place and rank. */
record Candidate(long userId, String displayName, Gender gender, Set<Gender> interestedIn, LocalDate birthDate,
		double lat, double lon, int ageMin, int ageMax, int maxDistanceKm, double score) {

	/** How far past the viewer's age range an expanding deck goes. */
	static final int AGE_SLACK_YEARS = 5;

	int ageOn(LocalDate day) {
		return Period.between(this.birthDate, day).getYears();
	}

	/** The one distance the deck uses, to check preferences and to show on the card. */
	double distanceKm(Profile viewer) {
		return Geohash.distanceKm(viewer.lat(), viewer.lon(), this.lat, this.lon);
	}

	/**
	 * Both sides' gender, age and distance preferences hold: the viewer would pick this
	 * person and this person would pick the viewer.
	 */
	boolean suits(Profile viewer, LocalDate today) {
		return fitFor(viewer, today, 0) == Fit.WITHIN;
	}

	/**
	 * Where this person stands for the viewer. This person's own preferences (gender, the
	 * viewer's age, the distance) always hold in full; only the viewer's distance and age
	 * preferences are widened, up to {@code maxExpandKm} and {@link #AGE_SLACK_YEARS}.
	 */
	Fit fitFor(Profile viewer, LocalDate today, int maxExpandKm) {
		int age = ageOn(today);
		int viewerAge = viewer.ageOn(today);
		double distance = distanceKm(viewer);
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
