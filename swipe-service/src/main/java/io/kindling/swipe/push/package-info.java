/**
 * Each user's event stream ({@code GET /api/events}): a log per user in Redis that gives
 * every event its id, pub/sub that carries it to whichever instance holds the user's
 * streams, and the catch-up of a client reconnecting with {@code Last-Event-ID}.
 */
@NullMarked
package io.kindling.swipe.push;

import org.jspecify.annotations.NullMarked;
