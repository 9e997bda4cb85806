@NullMarked
package io.kindling.swipe.security;

import org.jspecify.annotations.NullMarked;
