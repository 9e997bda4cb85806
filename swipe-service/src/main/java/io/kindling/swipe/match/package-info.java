@NullMarked
package io.kindling.swipe.match;

import org.jspecify.annotations.NullMarked;
