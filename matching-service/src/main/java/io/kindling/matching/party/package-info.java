/**
 * Parties: two sessions that join rooms together, as one ticket of two. A party is made
 * by one session ({@code POST /api/parties}), joined by a second with its short code, and
 * then joined for, by its creator, into a queue of rooms of three.
 */
@NullMarked
package io.kindling.matching.party;

import org.jspecify.annotations.NullMarked;
