package io.kindling.swipe.swipe;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/** The answer to {@code POST /api/swipes}, built only from the stored row. */
record SwipeResponse(long swipeId, String action, boolean matched, @Nullable Long matchId,
		@Nullable Instant matchedAt) {

}
