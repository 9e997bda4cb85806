/**
 * {@code ./kindling bench relay}: the outbox relay's backlog rate and commit-to-consumer
 * latency beside a naive relay (one row, one synchronous send, one update).
 */
@NullMarked
package io.kindling.infra.bench.relay;

import org.jspecify.annotations.NullMarked;
