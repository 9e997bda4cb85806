/**
 * {@code ./kindling bench rooms}: room matching on two matching-service instances beside
 * a no-op endpoint, push latency beside polling, and forming cost by queue depth.
 */
@NullMarked
package io.kindling.infra.bench.rooms;

import org.jspecify.annotations.NullMarked;
