@NullMarked
package io.kindling.relay;

import org.jspecify.annotations.NullMarked;
