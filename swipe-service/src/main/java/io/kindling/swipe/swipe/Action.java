package io.kindling.swipe.swipe;

/** What a swipe says about its target; listeners of {@link SwipeRecorded} read it too. */
public enum Action {

	LIKE, PASS, SUPER_LIKE;

	/**
	 * A like or a super like: the swipes that can make a match and that are limited per
	 * day.
	 */
	public boolean isLike() {
		return this != PASS;
	}

}
