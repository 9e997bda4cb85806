@NullMarked
package io.kindling.swipe.swipe;

import org.jspecify.annotations.NullMarked;
