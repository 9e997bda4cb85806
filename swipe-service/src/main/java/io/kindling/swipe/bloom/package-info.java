@NullMarked
package io.kindling.swipe.bloom;

import org.jspecify.annotations.NullMarked;
