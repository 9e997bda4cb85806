/**
 * {@code ./kindling consume <topic>}: a console consumer that prints events as they
 * arrive.
 */
@NullMarked
package io.kindling.infra.consume;

import org.jspecify.annotations.NullMarked;
