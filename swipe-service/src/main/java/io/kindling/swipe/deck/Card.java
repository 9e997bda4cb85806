package io.kindling.swipe.deck;

/**
 * One card of a deck: never the exact location, only a whole number of kilometres (at
 * least 1).
 */
record Card(long userId, String displayName, int age, long distanceKm, boolean superLikedYou, boolean boosted) {

}
