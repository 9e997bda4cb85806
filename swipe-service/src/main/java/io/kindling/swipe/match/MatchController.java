package io.kindling.swipe.match;

import io.kindling.support.web.Refuses;
import io.kindling.swipe.match.Matches.MatchPage;
import io.kindling.swipe.security.CurrentUser;
import io.swagger.v3.oas.annotations.Operation;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

@RestController
class MatchController {

	private final Matches matches;

	MatchController(Matches matches) {
		this.matches = matches;
	}

	@GetMapping("/api/matches")
	@Operation(summary = "List the caller's matches",
			description = "Standing matches, newest first, `user_id` being the other person. Pass `next_cursor` "
					+ "back as `cursor` for the next page; it is null on the last one, and a cursor that cannot "
					+ "be read is 400 `bad-cursor`.")
	@Refuses("bad-cursor")
	MatchPage page(@AuthenticationPrincipal Jwt jwt, @RequestParam(required = false) @Nullable String cursor,
			@RequestParam(defaultValue = "" + Matches.PAGE_SIZE) @Min(1) @Max(Matches.MAX_PAGE_SIZE) int limit) {
		return this.matches.page(CurrentUser.id(jwt), cursor, limit);
	}

	@DeleteMapping("/api/matches/{matchId}")
	@Operation(summary = "Unmatch",
			description = "Ends the match (204); both people get `match_removed` on their event streams. Unmatching "
					+ "again is 204 and changes nothing; 404 `no-such-match` when the match is not the " + "caller's.")
	@ResponseStatus(HttpStatus.NO_CONTENT)
	@Refuses("no-such-match")
	void unmatch(@AuthenticationPrincipal Jwt jwt, @PathVariable long matchId) {
		this.matches.unmatch(CurrentUser.id(jwt), matchId);
	}

}
