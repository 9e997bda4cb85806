/** The one clock bean. */
@NullMarked
package io.kindling.support.time;

import org.jspecify.annotations.NullMarked;
