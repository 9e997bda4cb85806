/**
 * {@code ./kindling bench stack}: the drill of the cluster stack ({@code ./kindling up
 * --cluster}) through its balancer, with a Redis primary killed.
 */
@NullMarked
package io.kindling.infra.bench.stack;

import org.jspecify.annotations.NullMarked;
