@NullMarked
package io.kindling.matching.ban;

import org.jspecify.annotations.NullMarked;
