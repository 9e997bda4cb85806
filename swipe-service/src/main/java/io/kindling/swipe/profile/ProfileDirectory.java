package io.kindling.swipe.profile;

import java.util.Optional;

/** Looks profiles up by user id; MySQL's {@code profiles} table behind it. */
public interface ProfileDirectory {

	Optional<Profile> find(long userId);

	boolean exists(long userId);

}
