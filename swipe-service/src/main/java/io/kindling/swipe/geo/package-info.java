@NullMarked
package io.kindling.swipe.geo;

import org.jspecify.annotations.NullMarked;
