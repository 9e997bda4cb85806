/**
 * A consumer of {@code kindling.matches} and {@code kindling.messages}: de-duplicates on
 * {@code event_id} in the transaction of its own effect, retries failures with back-off,
 * sends what cannot be processed to a dead-letter topic, and continues each event's
 * trace.
 */
@NullMarked
package io.kindling.consumer;

import org.jspecify.annotations.NullMarked;
