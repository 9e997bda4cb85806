package io.kindling.swipe.profile;

import java.time.Duration;

import io.kindling.support.web.Refusal;
import io.kindling.support.web.Refused;

import org.springframework.http.HttpStatus;

/**
 * The ways a profile call is refused, and the refusal of anything aimed at someone
 * without one.
 */
public enum ProfileRefusals implements Refusal {

	/** The person swiped on, blocked or reported has no profile. */
	UNKNOWN_TARGET("unknown-target", HttpStatus.UNPROCESSABLE_CONTENT, "Unknown target"),

	TOO_YOUNG("too-young", HttpStatus.UNPROCESSABLE_CONTENT, "Too young"),

	BAD_AGE_RANGE("bad-age-range", HttpStatus.BAD_REQUEST, "Bad age range"),

	NO_SUCH_PROFILE("no-such-profile", HttpStatus.NOT_FOUND, "No such profile"),

	/** The caller has no profile of their own yet, and the call needs one. */
	NO_PROFILE("no-profile", HttpStatus.NOT_FOUND, "No profile"),

	/** The caller moved to another cell too often in the last hour. */
	TOO_MANY_LOCATION_CHANGES("too-many-location-changes", HttpStatus.TOO_MANY_REQUESTS, "Too many location changes");

	private final Type type;

	ProfileRefusals(String slug, HttpStatus status, String title) {
		this.type = new Type(slug, status, title);
	}

	@Override
	public Type type() {
		return this.type;
	}

	/** The caller has no profile yet; {@code needed} says what it is needed for. */
	public static Refused noProfile(String needed) {
		return NO_PROFILE.refused("Create a profile (PUT /api/profile) " + needed + ".");
	}

	static Refused tooManyLocationChanges(int perHour, Duration retryAfter) {
		return TOO_MANY_LOCATION_CHANGES.refused(
				"Your location can change " + perHour + " times an hour; keep the one you have for now.", retryAfter);
	}

	/** Someone acted on a user without a profile. */
	public static Refused unknownTarget(long userId) {
		return UNKNOWN_TARGET.refused("User " + userId + " has no profile.");
	}

}
