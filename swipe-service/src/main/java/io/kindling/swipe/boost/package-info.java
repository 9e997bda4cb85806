@NullMarked
package io.kindling.swipe.boost;

import org.jspecify.annotations.NullMarked;
