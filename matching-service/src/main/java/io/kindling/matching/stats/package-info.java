/**
 * Queue statistics: a snapshot of every active topic's queues that the sweeper refreshes,
 * the estimated wait, the endpoint and the gauges that show them.
 */
@NullMarked
package io.kindling.matching.stats;

import org.jspecify.annotations.NullMarked;
