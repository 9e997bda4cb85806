package io.kindling.swipe.boost;

import java.time.Instant;

import io.kindling.support.web.Refuses;
import io.kindling.swipe.security.CurrentUser;
import io.swagger.v3.oas.annotations.Operation;

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
	@Operation(summary = "Start a boost",
			description = "Shows the caller's card in the decks of people nearby whose preferences fit, until "
					+ "`expires_at`. 409 `boost-active` while one runs, 429 `boost-cooldown` with `Retry-After` "
					+ "too soon after the last one, 404 `no-profile` without a profile.")
	@Refuses({ "no-profile", "boost-active", "boost-cooldown" })
	@ResponseStatus(HttpStatus.CREATED)
	BoostStarted start(@AuthenticationPrincipal Jwt jwt) {
		return new BoostStarted(this.boosts.start(CurrentUser.id(jwt)));
	}

	/** The caller's running boost and the viewers it was served to so far. */
	@GetMapping("/api/boosts/current")
	@Operation(summary = "Get the caller's running boost",
			description = "When it ends, and `views`: how many viewers were served a page holding the boosted card "
					+ "so far. 404 `no-active-boost` when none runs.")
	@Refuses("no-active-boost")
	CurrentBoost current(@AuthenticationPrincipal Jwt jwt) {
		return this.boosts.current(CurrentUser.id(jwt))
			.map((boost) -> new CurrentBoost(boost.expiresAt(), boost.views()))
			.orElseThrow(() -> BoostRefusals.NO_ACTIVE_BOOST.refused("You have no boost running."));
	}

	record BoostStarted(Instant expiresAt) {

	}

	record CurrentBoost(Instant expiresAt, long views) {

	}

}
