@NullMarked
package io.kindling.swipe.deck;

import org.jspecify.annotations.NullMarked;
