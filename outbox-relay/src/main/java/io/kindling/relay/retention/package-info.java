/** Deleting published rows after the retention period, in small batches. */
@NullMarked
package io.kindling.relay.retention;

import org.jspecify.annotations.NullMarked;
