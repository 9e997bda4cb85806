@NullMarked
package io.kindling.matching;

import org.jspecify.annotations.NullMarked;
