@NullMarked
package io.kindling.swipe.superlike;

import org.jspecify.annotations.NullMarked;
