/**
 * A room's conversation ({@code GET /ws/rooms/{conversation_id}}): its people's messages
 * over a WebSocket, kept in a Redis stream in the room's slot for the room's life, fanned
 * out to every instance by sharded pub/sub, the same order for everyone. Members are
 * named by their seat's alias (A, B, C), never by a token.
 */
@NullMarked
package io.kindling.matching.chat;

import org.jspecify.annotations.NullMarked;
