package io.kindling.swipe.deck;

/**
 * One card of a deck: never the exact location, only a whole number of kilometres (at
 * least 1).
 *
 * @param outsidePreferences the person is beyond the viewer's own distance or age
 * preference, shown because the viewer asked for more once the deck ran out
 */
record Card(long userId, String displayName, int age, long distanceKm, boolean superLikedYou, boolean boosted,
		boolean outsidePreferences) {

	/** The same person shown as a boosted card. */
	Card asBoosted() {
		return new Card(this.userId, this.displayName, this.age, this.distanceKm, false, true, this.outsidePreferences);
	}

	/** The same person as an ordinary card of the same deck. */
	Card asOrganic() {
		return new Card(this.userId, this.displayName, this.age, this.distanceKm, false, false,
				this.outsidePreferences);
	}

}
