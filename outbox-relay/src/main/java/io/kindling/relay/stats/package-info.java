/** Backlog gauges per source: unpublished rows, the oldest one, parked rows. */
@NullMarked
package io.kindling.relay.stats;

import org.jspecify.annotations.NullMarked;
