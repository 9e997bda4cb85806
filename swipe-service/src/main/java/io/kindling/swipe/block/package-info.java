@NullMarked
package io.kindling.swipe.block;

import org.jspecify.annotations.NullMarked;
