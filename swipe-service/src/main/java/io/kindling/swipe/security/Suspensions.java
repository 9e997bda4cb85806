package io.kindling.swipe.security;

import java.time.Instant;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/** Which users are banned now: every call of theirs is refused while it lasts. */
public interface Suspensions {

	/** The user's ban in force now, if any. */
	Optional<Suspension> of(long userId);

	/**
	 * @param endsAt null for a ban with no end
	 */
	record Suspension(@Nullable Instant endsAt) {

	}

}
