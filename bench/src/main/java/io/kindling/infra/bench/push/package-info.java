/**
 * {@code ./kindling bench push}: how soon a person learns of a match the other person
 * made, by the event stream and by polling, side by side.
 */
@NullMarked
package io.kindling.infra.bench.push;

import org.jspecify.annotations.NullMarked;
