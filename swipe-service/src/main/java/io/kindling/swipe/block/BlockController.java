package io.kindling.swipe.block;

import java.time.Instant;

import io.kindling.swipe.block.Blocks.BlockPage;
import io.kindling.swipe.security.CurrentUser;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
class BlockController {

	private final Blocks blocks;

	BlockController(Blocks blocks) {
		this.blocks = blocks;
	}

	/** 201 for a new block, 200 for one that was there already. */
	@PostMapping("/api/blocks")
	ResponseEntity<BlockAnswer> block(@AuthenticationPrincipal Jwt jwt, @RequestBody BlockRequest request) {
		Long userId = request.userId();
		if (userId == null) {
			throw BlockRefused.badBlock("user_id must be a user id.");
		}
		Blocks.Blocked blocked = this.blocks.block(CurrentUser.id(jwt), userId);
		return ResponseEntity.status(blocked.created() ? HttpStatus.CREATED : HttpStatus.OK)
			.body(new BlockAnswer(userId, blocked.blockedAt()));
	}

	@DeleteMapping("/api/blocks/{userId}")
	ResponseEntity<Void> unblock(@AuthenticationPrincipal Jwt jwt, @PathVariable long userId) {
		this.blocks.unblock(CurrentUser.id(jwt), userId);
		return ResponseEntity.noContent().build();
	}

	@GetMapping("/api/blocks")
	BlockPage page(@AuthenticationPrincipal Jwt jwt, @RequestParam(required = false) @Nullable String cursor,
			@RequestParam(defaultValue = "" + Blocks.PAGE_SIZE) @Min(1) @Max(Blocks.MAX_PAGE_SIZE) int limit) {
		return this.blocks.page(CurrentUser.id(jwt), cursor, limit);
	}

	record BlockRequest(@Nullable Long userId) {

	}

	record BlockAnswer(long userId, Instant blockedAt) {

	}

}
