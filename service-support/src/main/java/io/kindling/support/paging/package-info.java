/**
 * Keyset paging the services share: the opaque cursor, and the two lists of an operators'
 * report queue.
 */
@NullMarked
package io.kindling.support.paging;

import org.jspecify.annotations.NullMarked;
