@NullMarked
package io.kindling.matching.join;

import org.jspecify.annotations.NullMarked;
