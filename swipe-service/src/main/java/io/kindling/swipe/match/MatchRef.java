package io.kindling.swipe.match;

import java.time.Instant;

/** The canonical match of a pair, as stored. */
public record MatchRef(long matchId, long userId1, long userId2, Instant matchedAt) {

}
