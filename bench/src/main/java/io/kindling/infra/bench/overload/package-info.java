/**
 * {@code ./kindling bench overload}: swipes and room joins offered at twice what one
 * instance serves, against the closed-loop maximum and the half-rate latency of the same
 * run.
 */
@NullMarked
package io.kindling.infra.bench.overload;

import org.jspecify.annotations.NullMarked;
