/**
 * The outbox tables the relay reads: one pool per database, and the partition lock rows
 * beside each table.
 */
@NullMarked
package io.kindling.relay.source;

import org.jspecify.annotations.NullMarked;
