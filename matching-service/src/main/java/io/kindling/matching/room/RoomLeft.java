package io.kindling.matching.room;

import java.time.Instant;

/**
 * A participant's seat in a room ended in MySQL, and its claim is not idle yet: told,
 * synchronously, to the room's conversation (the leaver's sockets close, the others hear
 * {@code left}, the last leave ends it). A listener that fails fails the leave, which is
 * then done whole again when retried; so a listener must change nothing more when told
 * twice.
 */
public record RoomLeft(String token, String roomId, Instant at) {

}
