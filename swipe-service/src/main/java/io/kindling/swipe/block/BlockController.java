package io.kindling.swipe.block;

import java.time.Instant;

import io.kindling.support.web.Refuses;
import io.kindling.swipe.block.Blocks.BlockPage;
import io.kindling.swipe.security.CurrentUser;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
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
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

@RestController
class BlockController {

	private final Blocks blocks;

	BlockController(Blocks blocks) {
		this.blocks = blocks;
	}

	/** 201 for a new block, 200 for one that was there already. */
	@PostMapping("/api/blocks")
	@Operation(summary = "Block someone",
			description = "Hides the two people from each other everywhere (deck, profiles, likes) and ends a match "
					+ "between them, which both learn as `match_removed`. 201 for a new block, 200 with the "
					+ "same body when it was there already. 400 `bad-block` without a `user_id` or for the "
					+ "caller's own, 422 `unknown-target` when they have no profile or they blocked the caller "
					+ "first (nothing is written).")
	@ApiResponse(responseCode = "201", description = "Blocked", useReturnTypeSchema = true)
	@ApiResponse(responseCode = "200", description = "Blocked before", useReturnTypeSchema = true)
	@Refuses({ "bad-block", "unknown-target" })
	ResponseEntity<BlockAnswer> block(@AuthenticationPrincipal Jwt jwt, @RequestBody BlockRequest request) {
		Long userId = request.userId();
		if (userId == null) {
			throw BlockRefusals.BAD_BLOCK.refused("user_id must be a user id.");
		}
		Blocks.Blocked blocked = this.blocks.block(CurrentUser.id(jwt), userId);
		return ResponseEntity.status(blocked.created() ? HttpStatus.CREATED : HttpStatus.OK)
			.body(new BlockAnswer(userId, blocked.blockedAt()));
	}

	@DeleteMapping("/api/blocks/{userId}")
	@Operation(summary = "Lift a block",
			description = "The two can see each other again; a match the block ended stays ended. 204, also when "
					+ "there was no block.")
	@ResponseStatus(HttpStatus.NO_CONTENT)
	void unblock(@AuthenticationPrincipal Jwt jwt, @PathVariable long userId) {
		this.blocks.unblock(CurrentUser.id(jwt), userId);
	}

	@GetMapping("/api/blocks")
	@Operation(summary = "List the people the caller blocked",
			description = "Newest first; pass `next_cursor` back as `cursor` for the next page (400 `bad-cursor` "
					+ "for one that cannot be read).")
	@Refuses("bad-cursor")
	BlockPage page(@AuthenticationPrincipal Jwt jwt, @RequestParam(required = false) @Nullable String cursor,
			@RequestParam(defaultValue = "" + Blocks.PAGE_SIZE) @Min(1) @Max(Blocks.MAX_PAGE_SIZE) int limit) {
		return this.blocks.page(CurrentUser.id(jwt), cursor, limit);
	}

	record BlockRequest(@Nullable Long userId) {

	}

	record BlockAnswer(long userId, Instant blockedAt) {

	}

}
