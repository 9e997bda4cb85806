package io.kindling.swipe.likes;

import io.kindling.swipe.likes.LikesYou.LikesPage;
import io.kindling.swipe.security.CurrentUser;
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
	LikesPage page(@AuthenticationPrincipal Jwt jwt, @RequestParam(required = false) @Nullable String cursor,
			@RequestParam(defaultValue = "" + LikesYou.PAGE_SIZE) @Min(1) @Max(LikesYou.MAX_PAGE_SIZE) int limit) {
		return this.likes.page(CurrentUser.id(jwt), cursor, limit);
	}

}
