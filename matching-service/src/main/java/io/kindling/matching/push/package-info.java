@NullMarked
package io.kindling.matching.push;

import org.jspecify.annotations.NullMarked;
