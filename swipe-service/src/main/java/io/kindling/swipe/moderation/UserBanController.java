package io.kindling.swipe.moderation;

import java.time.Instant;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

import io.kindling.support.web.Refuses;
import io.kindling.swipe.moderation.UserBans.BanPage;
import io.kindling.swipe.security.Operator;
import io.swagger.v3.oas.annotations.Operation;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** {@code /api/admin/user-bans}, behind the admin token. */
@RestController
class UserBanController {

	private final UserBans bans;

	UserBanController(UserBans bans) {
		this.bans = bans;
	}

	@PostMapping("/api/admin/user-bans")
	@Operation(summary = "Ban a user",
			description = "Until `expires_at`, or with no end when it is absent. At once the user's every call is "
					+ "403 `account-suspended`, their event streams end (`account_suspended`), they leave every "
					+ "deck and likes list, and each of their matches ends (`MATCH_REMOVED`, reason `BANNED`, "
					+ "pushed to both people as `match_removed`). 201; 409 `already-banned` while a ban of "
					+ "theirs is in force; 400 `bad-ban` for a `user_id` that is not a user id or an `expires_at` "
					+ "not in the future. Needs the admin token.")
	@Refuses({ "bad-ban", "already-banned" })
	@ResponseStatus(HttpStatus.CREATED)
	UserBans.BanView ban(@AuthenticationPrincipal Operator operator, @Valid @RequestBody NewBan request) {
		return this.bans.ban(operator, request.userId(), request.reason().strip(), request.expiresAt());
	}

	@DeleteMapping("/api/admin/user-bans/{userId}")
	@Operation(summary = "Lift a user's ban",
			description = "The user may call again and shows up in decks and likes again; the matches the ban ended "
					+ "stay ended. 204; 404 `no-such-ban` when the user has no ban. Needs the admin token.")
	@Refuses("no-such-ban")
	@ResponseStatus(HttpStatus.NO_CONTENT)
	void lift(@AuthenticationPrincipal Operator operator, @PathVariable long userId) {
		this.bans.lift(operator, userId);
	}

	@GetMapping("/api/admin/user-bans")
	@Operation(summary = "List user bans",
			description = "In force and expired alike (`active`), newest first, `limit` (1 to 100) at a time. Pass "
					+ "`next_cursor` back as `cursor` for the next page (400 `bad-cursor` for one that cannot be "
					+ "read). Needs the admin token.")
	@Refuses("bad-cursor")
	BanPage list(@AuthenticationPrincipal Operator operator, @RequestParam(required = false) @Nullable String cursor,
			@RequestParam(defaultValue = "" + UserBans.PAGE_SIZE) @Min(1) @Max(UserBans.MAX_PAGE_SIZE) int limit) {
		return this.bans.page(operator, cursor, limit);
	}

	/**
	 * @param expiresAt absent for a ban with no end
	 */
	record NewBan(@NotNull Long userId, @NotBlank @Size(max = 500) String reason, @Nullable Instant expiresAt) {

	}

}
