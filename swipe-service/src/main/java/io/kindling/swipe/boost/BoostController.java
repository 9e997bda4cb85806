package io.kindling.swipe.boost;

import java.time.Instant;

import io.kindling.support.web.ProblemType;
import io.kindling.support.web.Refuses;

import org.springframework.http.HttpStatus;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

@RestController
class BoostController {

	private final Boosts boosts;

	BoostController(Boosts boosts) {
		this.boosts = boosts;
	}

	@PostMapping("/api/boosts")
	@Refuses({ ProblemType.NO_PROFILE, ProblemType.BOOST_ACTIVE, ProblemType.BOOST_COOLDOWN })
	@ResponseStatus(HttpStatus.CREATED)
	BoostStarted start(@AuthenticationPrincipal Jwt jwt) {
		return new BoostStarted(this.boosts.start(Long.parseLong(jwt.getSubject())));
	}

	record BoostStarted(Instant expiresAt) {

	}

}
