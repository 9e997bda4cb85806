package io.kindling.swipe.likes;

import io.kindling.support.web.Refuses;
import io.kindling.swipe.likes.LikesYou.LikesPage;
import io.kindling.swipe.security.CurrentUser;
import io.swagger.v3.oas.annotations.Operation;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.jspecify.annotations.Nullable;

import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
class LikesController {

	private final LikesYou likes;

	LikesController(LikesYou likes) {
		this.likes = likes;
	}

	@GetMapping("/api/likes")
	@Operation(summary = "List who likes the caller",
			description = "People whose like or super like on the caller waits for an answer: the caller has not "
					+ "swiped on them and neither blocked the other. Super likes first, then likes, each newest "
					+ "first; pass `next_cursor` back as `cursor` for the next page (400 `bad-cursor` for one "
					+ "that cannot be read).")
	@Refuses("bad-cursor")
	LikesPage page(@AuthenticationPrincipal Jwt jwt, @RequestParam(required = false) @Nullable String cursor,
			@RequestParam(defaultValue = "" + LikesYou.PAGE_SIZE) @Min(1) @Max(LikesYou.MAX_PAGE_SIZE) int limit) {
		return this.likes.page(CurrentUser.id(jwt), cursor, limit);
	}

}
