package io.kindling.matching.topic;

/** A topic people can wait in. */
public record Topic(long id, String name) {

}
