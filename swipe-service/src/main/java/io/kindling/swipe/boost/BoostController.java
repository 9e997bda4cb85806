package io.kindling.swipe.boost;

import java.time.Instant;

import io.kindling.swipe.security.CurrentUser;

import org.springframework.http.HttpStatus;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.web.bind.annotation.GetMapping;
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
	@ResponseStatus(HttpStatus.CREATED)
	BoostStarted start(@AuthenticationPrincipal Jwt jwt) {
		return new BoostStarted(this.boosts.start(CurrentUser.id(jwt)));
	}

	/** The caller's running boost and the viewers it was served to so far. */
	@GetMapping("/api/boosts/current")
	CurrentBoost current(@AuthenticationPrincipal Jwt jwt) {
		return this.boosts.current(CurrentUser.id(jwt))
			.map((boost) -> new CurrentBoost(boost.expiresAt(), boost.views()))
			.orElseThrow(NoActiveBoost::new);
	}

	record BoostStarted(Instant expiresAt) {

	}

	record CurrentBoost(Instant expiresAt, long views) {

	}

}
