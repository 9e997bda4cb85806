package io.kindling.swipe.push;

/**
 * An event for one user's stream.
 *
 * @param recipient the user whose stream gets it
 * @param type the event's name ({@code match_created})
 * @param data its body, written as JSON
 */
public record UserEvent(long recipient, String type, Object data) {

}
