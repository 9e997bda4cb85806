package io.kindling.swipe.profile;

import java.util.Optional;

/** Looks profiles up by user id; MySQL's {@code profiles} table behind it. */
public interface ProfileDirectory {

	Optional<Profile> find(long userId);

	boolean exists(long userId);

	/**
	 * Whether {@code userId} has a profile that {@code viewerId} may see: it exists and
	 * neither of the two blocked the other. A hidden profile and a missing one get the
	 * same answer, so whoever asks cannot tell a block from an account that is not there.
	 */
	boolean visibleTo(long viewerId, long userId);

}
