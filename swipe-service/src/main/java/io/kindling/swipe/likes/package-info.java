@NullMarked
package io.kindling.swipe.likes;

import org.jspecify.annotations.NullMarked;
