/** The idempotent producer, the topics it sends to, and the Kafka health indicator. */
@NullMarked
package io.kindling.relay.kafka;

import org.jspecify.annotations.NullMarked;
