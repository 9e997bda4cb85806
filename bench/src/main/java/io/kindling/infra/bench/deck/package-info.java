/**
 * The discovery deck benchmark ({@code ./kindling bench deck}) and its profile generator
 * ({@code ./kindling seed-data --profiles N}).
 */
@NullMarked
package io.kindling.infra.bench.deck;

import org.jspecify.annotations.NullMarked;
