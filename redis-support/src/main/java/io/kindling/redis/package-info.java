@NullMarked
package io.kindling.redis;

import org.jspecify.annotations.NullMarked;
