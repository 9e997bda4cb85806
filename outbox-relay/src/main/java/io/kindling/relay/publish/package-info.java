/**
 * Claiming rows, sending them to Kafka and marking them published, per-key order kept
 * across relays.
 */
@NullMarked
package io.kindling.relay.publish;

import org.jspecify.annotations.NullMarked;
