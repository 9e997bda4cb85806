package io.kindling.swipe.swipe;

import java.time.Instant;

/**
 * A swipe became durable in MySQL, published once (never on a replay), synchronously
 * after its transaction committed and before its match is decided. Listeners run on the
 * request thread: they must be quick, and a listener's failure is logged, not returned to
 * the swiper, since the swipe itself is already stored.
 */
public record SwipeRecorded(long userId, long targetUserId, Action action, Instant at) {

}
