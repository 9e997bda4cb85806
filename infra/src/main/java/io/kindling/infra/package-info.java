/**
 * Real servers for {@code ./kindling} and for tests: Redis, MariaDB and a one-node KRaft
 * Kafka, started as processes on loopback, never as fakes.
 */
@NullMarked
package io.kindling.infra;

import org.jspecify.annotations.NullMarked;
