package io.kindling.swipe.swipe;

import java.util.Locale;
import java.util.regex.Pattern;

import io.kindling.support.web.Refuses;
import io.kindling.swipe.security.CurrentUser;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

@RestController
class SwipeController {

	static final String IDEMPOTENCY_KEY = "Idempotency-Key";

	static final String REPLAYED = "Idempotent-Replayed";

	static final int MAX_KEY_LENGTH = 64;

	// printable ASCII without spaces: UUIDs, ULIDs and the like
	private static final Pattern KEY = Pattern.compile("[\\x21-\\x7E]{1," + MAX_KEY_LENGTH + "}");

	private final Swipes swipes;

	SwipeController(Swipes swipes) {
		this.swipes = swipes;
	}

	@PostMapping("/api/swipes")
	@Operation(summary = "Swipe on someone",
			description = "Records a `LIKE`, `PASS` or `SUPER_LIKE` on `target_user_id` and answers whether it made "
					+ "a match. Send one new `Idempotency-Key` per swipe: a retry with the same key and body "
					+ "gets the same answer with `Idempotent-Replayed: true`, the same key with another body is "
					+ "409 `idempotency-key-reused`. 409 `already-swiped` while a swipe on that person stands "
					+ "(rewind first), 429 `daily-limit-reached` with `Retry-After` once today's likes or super "
					+ "likes are used up (a rewound one still counts), 422 `unknown-target` when the target has no "
					+ "profile or either of the two blocked the other.")
	@Refuses({ "bad-idempotency-key", "bad-swipe", "self-swipe", "unknown-target", "already-swiped",
			"idempotency-key-reused", "daily-limit-reached" })
	ResponseEntity<SwipeResponse> swipe(@AuthenticationPrincipal Jwt jwt,
			// required, but refused here as bad-idempotency-key rather than by Spring as
			// invalid-request
			@Parameter(required = true,
					description = "One new key per swipe, printable ASCII, at most 64: a retry with the same key "
							+ "and body gets the same answer") @RequestHeader(name = IDEMPOTENCY_KEY,
									required = false) @Nullable String idempotencyKey,
			@RequestBody SwipeRequest request) {
		String requestId = requestId(idempotencyKey);
		Long targetUserId = request.targetUserId();
		if (targetUserId == null || targetUserId <= 0) {
			throw SwipeRefusals.badSwipe("target_user_id must be a user id.");
		}
		Swipes.Outcome outcome = this.swipes.swipe(CurrentUser.id(jwt), requestId, targetUserId,
				action(request.action()));
		ResponseEntity.BodyBuilder ok = ResponseEntity.ok();
		if (outcome.replayed()) {
			ok.header(REPLAYED, "true");
		}
		return ok.body(outcome.response());
	}

	@DeleteMapping("/api/swipes/last")
	@Operation(summary = "Rewind the last swipe",
			description = "Takes back the caller's last swipe (204), so that person can come back in the deck. 404 "
					+ "`nothing-to-rewind` when there is none, 409 `swipe-made-a-match` when it made a match "
					+ "(unmatch instead).")
	@ResponseStatus(HttpStatus.NO_CONTENT)
	@Refuses({ "nothing-to-rewind", "swipe-made-a-match" })
	void rewind(@AuthenticationPrincipal Jwt jwt) {
		this.swipes.rewindLast(CurrentUser.id(jwt));
	}

	private static String requestId(@Nullable String idempotencyKey) {
		if (idempotencyKey == null || idempotencyKey.isEmpty()) {
			throw SwipeRefusals.badIdempotencyKey("The Idempotency-Key header is required: one new key per swipe.");
		}
		if (idempotencyKey.length() > MAX_KEY_LENGTH) {
			throw SwipeRefusals.badIdempotencyKey("Idempotency-Key is at most " + MAX_KEY_LENGTH + " characters.");
		}
		if (!KEY.matcher(idempotencyKey).matches()) {
			throw SwipeRefusals.badIdempotencyKey("Idempotency-Key must be printable ASCII without spaces.");
		}
		return idempotencyKey;
	}

	private static Action action(@Nullable String action) {
		if (action != null) {
			try {
				return Action.valueOf(action.toUpperCase(Locale.ROOT));
			}
			catch (IllegalArgumentException ex) {
				// falls through to the refusal
			}
		}
		throw SwipeRefusals.badSwipe("action must be LIKE, PASS or SUPER_LIKE.");
	}

	record SwipeRequest(@Nullable Long targetUserId, @Nullable String action) {

	}

}
