@NullMarked
package io.kindling.matching.room;

import org.jspecify.annotations.NullMarked;
