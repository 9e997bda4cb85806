/**
 * {@code ./kindling bench swipes}: the swipe write path over HTTP beside the plain
 * two-transaction swipe write by raw JDBC.
 */
@NullMarked
package io.kindling.infra.bench.swipes;

import org.jspecify.annotations.NullMarked;
