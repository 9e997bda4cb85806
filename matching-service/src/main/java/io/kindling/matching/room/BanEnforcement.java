package io.kindling.matching.room;

import io.kindling.matching.ban.BansChanged;
import io.kindling.matching.session.SessionService;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Drives the claims when bans change, on every instance that hears of it: each session
 * banned that still waits leaves its queue at once, found by its key (a ban names a
 * session by its key, never its token); a ban of an address or a network looks at every
 * queue. Each instance does it once it knows of the ban: a join of its own that passed
 * the ban list just before is then either seen here or sees the ban itself.
 */
@Component
class BanEnforcement {

	private final RoomClaims claims;

	private final SessionService sessions;

	BanEnforcement(RoomClaims claims, SessionService sessions) {
		this.claims = claims;
		this.sessions = sessions;
	}

	@EventListener
	void on(BansChanged changed) {
		for (String sessionKey : changed.sessionKeys()) {
			this.sessions.tokenOf(sessionKey).ifPresent(this.claims::evict);
		}
		if (changed.addresses()) {
			this.claims.evictBanned();
		}
	}

}
