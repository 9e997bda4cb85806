@NullMarked
package io.kindling.swipe.profile;

import org.jspecify.annotations.NullMarked;
