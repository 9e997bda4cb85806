package io.kindling.swipe.swipe;

import java.time.Instant;

/**
 * A user took back a swipe ({@code DELETE /api/swipes/last}); published after the rewind
 * committed.
 *
 * @param action the action that was taken back
 * @param at when it was taken back
 */
public record SwipeRewound(long userId, long targetUserId, Action action, Instant at) {

}
