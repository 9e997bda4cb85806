@NullMarked
package io.kindling.swipe.paging;

import org.jspecify.annotations.NullMarked;
