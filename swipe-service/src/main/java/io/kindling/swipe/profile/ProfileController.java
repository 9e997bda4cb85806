package io.kindling.swipe.profile;

import java.time.LocalDate;
import java.util.Set;

import io.kindling.support.web.Refuses;
import io.kindling.swipe.security.CurrentUser;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Past;
import jakarta.validation.constraints.Size;
import org.jspecify.annotations.Nullable;

import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

@RestController
class ProfileController {

	private final Profiles profiles;

	ProfileController(Profiles profiles) {
		this.profiles = profiles;
	}

	@PutMapping("/api/profile")
	@Operation(summary = "Create or replace the caller's profile",
			description = "Saves the whole profile and answers it as stored, with its exact location and geohash. "
					+ "422 `too-young` for a birth date under 18 years ago, 400 `bad-age-range` when `age_min` "
					+ "is above `age_max`, 429 `too-many-location-changes` with `Retry-After` when the location "
					+ "moves to another grid cell more often than the hourly limit allows (nothing is saved).")
	@Refuses({ "too-young", "bad-age-range", "too-many-location-changes" })
	OwnProfile put(@AuthenticationPrincipal Jwt jwt, @Valid @RequestBody ProfileRequest request) {
		return OwnProfile.of(this.profiles.save(CurrentUser.id(jwt), request));
	}

	@GetMapping("/api/profile")
	@Operation(summary = "Get the caller's own profile",
			description = "The caller's profile as stored, with its exact location and geohash. 404 `no-profile` "
					+ "until the caller has saved one.")
	@Refuses("no-profile")
	OwnProfile own(@AuthenticationPrincipal Jwt jwt) {
		return OwnProfile.of(this.profiles.own(CurrentUser.id(jwt)));
	}

	@GetMapping("/api/profiles/{userId}")
	@Operation(summary = "Get someone's profile card",
			description = "What anyone signed in sees of a person: an age, never the birth date, and the distance "
					+ "from the caller in whole kilometres between the centres of the two people's grid cells "
					+ "(about 1 km; null while the caller has no profile), never a location. 404 "
					+ "`no-such-profile` when there is no such profile or either of the two blocked the other.")
	@Refuses("no-such-profile")
	ProfileCard card(@AuthenticationPrincipal Jwt jwt, @PathVariable long userId) {
		return this.profiles.card(CurrentUser.id(jwt), userId);
	}

	record ProfileRequest(@NotBlank @Size(max = 50) @Nullable String displayName, @NotNull @Nullable Gender gender,
			@NotEmpty @Nullable Set<Gender> interestedIn, @NotNull @Past @Nullable LocalDate birthDate,
			@NotNull @Valid @Nullable Location location, @NotNull @Min(18) @Max(120) @Nullable Integer ageMin,
			@NotNull @Min(18) @Max(120) @Nullable Integer ageMax,
			@NotNull @Min(1) @Max(20000) @Nullable Integer maxDistanceKm,
			@Schema(description = "Once the people within the distance and age preferences are used up, the "
					+ "deck goes on beyond them, marked `outside_preferences`. Left out: false.") @Nullable Boolean expandWhenOut) {

	}

	record Location(@NotNull @DecimalMin("-90") @DecimalMax("90") @Nullable Double lat,
			@NotNull @DecimalMin("-180") @DecimalMax("180") @Nullable Double lon) {

	}

	/** What the owner sees of their own profile (their exact location included). */
	record OwnProfile(long userId, String displayName, Gender gender, Set<Gender> interestedIn, LocalDate birthDate,
			Location location, String geohash, int ageMin, int ageMax, int maxDistanceKm, boolean expandWhenOut) {

		static OwnProfile of(Profile p) {
			return new OwnProfile(p.userId(), p.displayName(), p.gender(), p.interestedIn(), p.birthDate(),
					new Location(p.lat(), p.lon()), p.geohash(), p.ageMin(), p.ageMax(), p.maxDistanceKm(),
					p.expandWhenOut());
		}

	}

	/**
	 * What anyone signed in sees: an age, never the birth date; a whole-kilometre
	 * distance from the viewer between the centres of their grid cells, never a location.
	 */
	record ProfileCard(long userId, String displayName, Gender gender, int age, @Nullable Integer distanceKm) {

	}

}
