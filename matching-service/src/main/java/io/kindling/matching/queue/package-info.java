@NullMarked
package io.kindling.matching.queue;

import org.jspecify.annotations.NullMarked;
