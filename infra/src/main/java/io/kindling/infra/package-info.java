/**
 * Test support: real servers for tests and for {@code ./kindling} (Redis, MariaDB and a
 * KRaft Kafka, started as processes on loopback, never as fakes), the HTTP client, and
 * the small command line its tools read.
 */
@NullMarked
package io.kindling.infra;

import org.jspecify.annotations.NullMarked;
