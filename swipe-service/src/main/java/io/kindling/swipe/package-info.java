@NullMarked
package io.kindling.swipe;

import org.jspecify.annotations.NullMarked;
