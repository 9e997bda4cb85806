package io.kindling.swipe.profile;

import java.time.Instant;
import java.time.LocalDate;
import java.time.Period;
import java.util.Set;

/**
 * A stored profile, as the deck and the swipe path read it. The exact location never
 * leaves the service; the public card carries an age and a distance between grid cells
 * ({@code LocationGrid}).
 */
public record Profile(long userId, String displayName, Gender gender, Set<Gender> interestedIn, LocalDate birthDate,
		double lat, double lon, String geohash, int ageMin, int ageMax, int maxDistanceKm, boolean expandWhenOut,
		double desirability, Instant createdAt, Instant updatedAt, Instant lastActiveAt) {

	public Profile {
		interestedIn = Set.copyOf(interestedIn);
	}

	public int ageOn(LocalDate day) {
		return Period.between(this.birthDate, day).getYears();
	}

}
