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

	int ageOn(LocalDate day) {
		return Period.between(this.birthDate, day).getYears();
	}

	double distanceKm(Profile viewer) {
		return Geohash.distanceKm(viewer.lat(), viewer.lon(), this.lat, this.lon);
	}

	/**
	 * Both sides' gender, age and distance preferences hold: the viewer would pick this
	 * person and this person would pick the viewer.
	 */
	boolean suits(Profile viewer, LocalDate today) {
		int age = ageOn(today);
		int viewerAge = viewer.ageOn(today);
		double distance = distanceKm(viewer);
		return this.userId != viewer.userId() && viewer.interestedIn().contains(this.gender)
				&& this.interestedIn.contains(viewer.gender()) && age >= viewer.ageMin() && age <= viewer.ageMax()
				&& viewerAge >= this.ageMin && viewerAge <= this.ageMax && distance <= viewer.maxDistanceKm()
				&& distance <= this.maxDistanceKm;
	}

}
