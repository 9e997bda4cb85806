@NullMarked
package io.kindling.matching.ratelimit;

import org.jspecify.annotations.NullMarked;
