package io.kindling.matching.session;

import jakarta.servlet.http.HttpServletRequest;

import io.kindling.support.web.ProblemType;
import io.kindling.support.web.Refuses;

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
	@Refuses(ProblemType.RATE_LIMITED)
	@ResponseStatus(HttpStatus.CREATED)
	SessionService.IssuedSession create(HttpServletRequest request) {
		return this.sessions.issue(request.getRemoteAddr());
	}

}
