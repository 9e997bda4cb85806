package io.kindling.matching.session;

import jakarta.servlet.http.HttpServletRequest;

import io.kindling.support.web.Refuses;
import io.swagger.v3.oas.annotations.Operation;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

@RestController
class SessionController {

	private final SessionService sessions;

	SessionController(SessionService sessions) {
		this.sessions = sessions;
	}

	@PostMapping("/api/sessions")
	@Operation(summary = "Start an anonymous session",
			description = "Issues a session token, valid until `expires_at`, to send as `Authorization: Bearer "
					+ "<token>` on the rooms' calls. It asks for nothing; past the per-address limit it answers "
					+ "429 `rate-limited` with `Retry-After`, and from an address or network on the ban list 403 "
					+ "`banned`.")
	@Refuses({ "rate-limited", "banned" })
	@ResponseStatus(HttpStatus.CREATED)
	SessionService.IssuedSession create(HttpServletRequest request) {
		return this.sessions.issue(request.getRemoteAddr());
	}

}
