/**
 * Reports from a room: a session reports the others of its current or last room, and
 * enough distinct reporters ban the session reported.
 */
@NullMarked
package io.kindling.matching.report;

import org.jspecify.annotations.NullMarked;
