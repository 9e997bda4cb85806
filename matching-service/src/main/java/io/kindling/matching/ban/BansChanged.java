package io.kindling.matching.ban;

import java.util.List;

/**
 * Bans were made or lifted and are committed: this instance's ban list reads the table
 * again before anyone else hears of it, and the sessions banned leave their queues.
 *
 * @param sessionKeys the sessions newly banned, by key (the SHA-256, hex, of the token)
 */
public record BansChanged(List<String> sessionKeys) {

	public BansChanged {
		sessionKeys = List.copyOf(sessionKeys);
	}

}
