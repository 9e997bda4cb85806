/**
 * Reports from a room: a session reports the others of its current or last room, and
 * reporters from enough distinct networks ban the session reported, and for a while its
 * network.
 */
@NullMarked
package io.kindling.matching.report;

import org.jspecify.annotations.NullMarked;
