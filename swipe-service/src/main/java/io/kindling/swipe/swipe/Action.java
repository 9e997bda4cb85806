package io.kindling.swipe.swipe;

enum Action {

	LIKE, PASS, SUPER_LIKE;

	boolean isLike() {
		return this != PASS;
	}

}
