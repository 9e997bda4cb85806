package io.kindling.swipe.profile;

import java.sql.Date;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.stream.Collectors;

import io.kindling.outbox.SqlTime;
import io.kindling.swipe.geo.Geohash;
import io.kindling.swipe.geo.LocationGrid;
import io.kindling.swipe.profile.ProfileController.ProfileCard;
import io.kindling.swipe.profile.ProfileController.ProfileRequest;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

@Service
class Profiles {

	static final int ADULT = 18;

	private final JdbcClient jdbc;

	private final ProfileDirectory directory;

	private final LocationGrid grid;

	private final LocationChangeScript locationChanges;

	private final ProfileProperties properties;

	private final Clock clock;

	Profiles(JdbcClient jdbc, ProfileDirectory directory, LocationGrid grid, LocationChangeScript locationChanges,
			ProfileProperties properties, Clock clock) {
		this.jdbc = jdbc;
		this.directory = directory;
		this.grid = grid;
		this.locationChanges = locationChanges;
		this.properties = properties;
		this.clock = clock;
	}

	Profile save(long userId, ProfileRequest request) {
		Instant now = this.clock.instant().truncatedTo(ChronoUnit.MICROS);
		LocalDate birthDate = Objects.requireNonNull(request.birthDate());
		int ageMin = Objects.requireNonNull(request.ageMin());
		int ageMax = Objects.requireNonNull(request.ageMax());
		if (java.time.Period.between(birthDate, LocalDate.ofInstant(now, ZoneOffset.UTC)).getYears() < ADULT) {
			throw ProfileRefusals.TOO_YOUNG.refused("Kindling is for people aged " + ADULT + " or over.");
		}
		if (ageMin > ageMax) {
			throw ProfileRefusals.BAD_AGE_RANGE.refused("age_min must not exceed age_max.");
		}
		double lat = Objects.requireNonNull(Objects.requireNonNull(request.location()).lat());
		double lon = Objects.requireNonNull(request.location().lon());
		if (movesToAnotherCell(userId, lat, lon)) {
			countLocationChange(userId, now);
		}
		this.jdbc
			.sql("""
					INSERT INTO profiles (user_id, display_name, gender, interested_in, birth_date, lat, lon, geohash,
					                      age_min, age_max, max_distance_km, expand_when_out, created_at, updated_at, last_active_at)
					VALUES (:userId, :displayName, :gender, :interestedIn, :birthDate, :lat, :lon, :geohash,
					        :ageMin, :ageMax, :maxDistanceKm, :expandWhenOut, FROM_UNIXTIME(:now), FROM_UNIXTIME(:now),
					        FROM_UNIXTIME(:now))
					ON DUPLICATE KEY UPDATE display_name = VALUES(display_name), gender = VALUES(gender),
					    interested_in = VALUES(interested_in), birth_date = VALUES(birth_date), lat = VALUES(lat),
					    lon = VALUES(lon), geohash = VALUES(geohash), age_min = VALUES(age_min), age_max = VALUES(age_max),
					    max_distance_km = VALUES(max_distance_km), expand_when_out = VALUES(expand_when_out), updated_at = VALUES(updated_at),
					    last_active_at = VALUES(last_active_at)
					""")
			.param("userId", userId)
			.param("displayName", Objects.requireNonNull(request.displayName()).strip())
			.param("gender", Objects.requireNonNull(request.gender()).name())
			.param("interestedIn",
					Objects.requireNonNull(request.interestedIn())
						.stream()
						.map(Gender::name)
						.sorted()
						.collect(Collectors.joining(",")))
			.param("birthDate", Date.valueOf(birthDate))
			.param("lat", lat)
			.param("lon", lon)
			.param("geohash", Geohash.encode(lat, lon, Geohash.STORED_PRECISION))
			.param("ageMin", ageMin)
			.param("ageMax", ageMax)
			.param("maxDistanceKm", Objects.requireNonNull(request.maxDistanceKm()))
			// left out: false, as for a new profile
			.param("expandWhenOut", Boolean.TRUE.equals(request.expandWhenOut()))
			.param("now", SqlTime.epochSeconds(now))
			.update();
		return this.directory.find(userId).orElseThrow();
	}

	Profile own(long userId) {
		return this.directory.find(userId).orElseThrow(() -> ProfileRefusals.noProfile("to read it"));
	}

	/**
	 * Whether the profile exists and this location is in another grid cell: a move within
	 * the cell changes nothing anyone else can learn (every distance shown is between
	 * cell centres), so a phone's jitter costs nothing, while each step of an attacker
	 * walking their own account across the grid does.
	 */
	private boolean movesToAnotherCell(long userId, double lat, double lon) {
		return this.directory.find(userId)
			.filter((stored) -> !this.grid.cellOf(stored.lat(), stored.lon()).equals(this.grid.cellOf(lat, lon)))
			.isPresent();
	}

	/**
	 * Counts a move against {@code location-changes-per-hour}, or refuses the whole save.
	 * Counted before the save: a save that then fails has used up one change, and two
	 * racing saves count two, which errs on the side of the limit.
	 */
	private void countLocationChange(long userId, Instant now) {
		int perHour = this.properties.locationChangesPerHour();
		if (perHour == 0) {
			return;
		}
		LocationChangeScript.Taken taken = this.locationChanges.take(userId, now, perHour);
		if (!taken.counted()) {
			throw ProfileRefusals.tooManyLocationChanges(perHour, taken.retryAfter());
		}
	}

	/**
	 * Someone blocked either way gets the answer of a missing profile: a block hides both
	 * people from each other, and cannot be told from a missing account.
	 */
	ProfileCard card(long viewerId, long userId) {
		Profile profile = this.directory.find(userId)
			.filter((found) -> this.directory.visibleTo(viewerId, userId))
			.orElseThrow(() -> ProfileRefusals.NO_SUCH_PROFILE.refused("User " + userId + " has no profile."));
		Integer distanceKm = this.directory.find(viewerId)
			.map((viewer) -> this.grid.shownDistanceKm(viewer.lat(), viewer.lon(), profile.lat(), profile.lon()))
			.orElse(null);
		return new ProfileCard(profile.userId(), profile.displayName(), profile.gender(),
				profile.ageOn(LocalDate.ofInstant(this.clock.instant(), ZoneOffset.UTC)), distanceKm);
	}

}
