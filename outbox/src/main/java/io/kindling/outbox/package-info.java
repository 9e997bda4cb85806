@NullMarked
package io.kindling.outbox;

import org.jspecify.annotations.NullMarked;
