/**
 * What every service's metrics share: exported without exemplars.
 */
@NullMarked
package io.kindling.support.metrics;

import org.jspecify.annotations.NullMarked;
