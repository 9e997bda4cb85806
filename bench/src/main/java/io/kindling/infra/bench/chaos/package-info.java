/**
 * {@code ./kindling bench chaos}: a mixed load through the cluster stack's balancer for
 * minutes while one process of each kind is killed in turn, then what must have held.
 */
@NullMarked
package io.kindling.infra.bench.chaos;

import org.jspecify.annotations.NullMarked;
