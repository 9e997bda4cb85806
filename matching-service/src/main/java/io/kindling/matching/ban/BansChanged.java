package io.kindling.matching.ban;

import java.util.List;

/**
 * Bans were made or lifted and are committed. Whoever hears it: the ban list first, which
 * reads the table again, then the claims, whose banned sessions leave their queues. Told
 * on the instance that made the change, which passes it on to the others.
 *
 * @param sessionKeys the sessions newly banned, by key (the SHA-256, hex, of the token)
 * @param addresses true when an address or a network was banned: whoever waits from it is
 * found by a look at every queue
 * @param heard true when another instance made the change (it is not passed on again)
 */
public record BansChanged(List<String> sessionKeys, boolean addresses, boolean heard) {

	public BansChanged {
		sessionKeys = List.copyOf(sessionKeys);
	}

	/** A change made here. */
	public static BansChanged made(List<String> sessionKeys, boolean addresses) {
		return new BansChanged(sessionKeys, addresses, false);
	}

	/** The same change, as an instance that did not make it hears of it. */
	public BansChanged heardElsewhere() {
		return new BansChanged(this.sessionKeys, this.addresses, true);
	}

}
