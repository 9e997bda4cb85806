/**
 * {@code ./kindling bench swipes}: the swipe write path over HTTP beside the seed's two
 * transactions by raw JDBC.
 */
@NullMarked
package io.kindling.infra.bench.swipes;

import org.jspecify.annotations.NullMarked;
