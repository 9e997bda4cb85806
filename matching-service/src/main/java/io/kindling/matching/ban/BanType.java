package io.kindling.matching.ban;

/** What a ban names: a client address, or a session by its key. */
public enum BanType {

	IP, SESSION

}
