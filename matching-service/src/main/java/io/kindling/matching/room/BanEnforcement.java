package io.kindling.matching.room;

import io.kindling.matching.ban.BansChanged;
import io.kindling.matching.session.SessionService;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Drives the claims when bans change: each session banned that still waits leaves its
 * queue at once, found by its key (a ban names a session by its key, never its token).
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
	}

}
