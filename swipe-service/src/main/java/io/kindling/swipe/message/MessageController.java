package io.kindling.swipe.message;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;

import io.kindling.support.web.AnsweredOnCompletion;
import io.kindling.support.web.Refuses;
import io.kindling.swipe.match.MatchMessage;
import io.kindling.swipe.message.Messages.MessagePage;
import io.kindling.swipe.security.CurrentUser;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

@RestController
class MessageController {

	private final Messages messages;

	MessageController(Messages messages) {
		this.messages = messages;
	}

	@PostMapping(path = "/api/matches/{matchId}/messages", produces = MediaType.APPLICATION_JSON_VALUE)
	@Operation(summary = "Send a message to a match",
			description = "Stores the message and pushes it as `message_created` to both people's event streams "
					+ "(the sender's other devices too). Send one new `client_message_id` per message: a retry "
					+ "with the same id and text is 200 with the stored message, the same id with another "
					+ "text 409 `client-message-id-reused`. `text` is 1 to 2,000 characters without control "
					+ "characters but the newline (else 400 `bad-message`); 404 `no-such-match` when the match "
					+ "is not the caller's or has ended (unmatch, block, ban); 429 `rate-limited` with "
					+ "`Retry-After` past the caller's message rate.")
	@ApiResponse(responseCode = "201", description = "Sent", useReturnTypeSchema = true)
	@ApiResponse(responseCode = "200", description = "Sent before, with this id and text", useReturnTypeSchema = true)
	@Refuses({ "bad-message", "no-such-match", "client-message-id-reused", "rate-limited" })
	// answered where the writer completes it, not by a second pass through the filters
	@AnsweredOnCompletion
	CompletableFuture<ResponseEntity<MatchMessage>> send(@AuthenticationPrincipal Jwt jwt, @PathVariable long matchId,
			@RequestBody SendMessage request) {
		return this.messages.send(CurrentUser.id(jwt), matchId, request.text(), request.clientMessageId())
			.thenApply((sent) -> ResponseEntity.status(sent.created() ? HttpStatus.CREATED : HttpStatus.OK)
				.body(sent.message()));
	}

	@GetMapping("/api/matches/{matchId}/messages")
	@Operation(summary = "Read a match's messages",
			description = "Newest first; pass `next_cursor` back as `cursor` for older ones (null on the last "
					+ "page; 400 `bad-cursor` for one that cannot be read). 404 `no-such-match` when the match "
					+ "is not the caller's or has ended.")
	@Refuses({ "bad-cursor", "no-such-match" })
	MessagePage page(@AuthenticationPrincipal Jwt jwt, @PathVariable long matchId,
			@RequestParam(required = false) @Nullable String cursor,
			@RequestParam(defaultValue = "" + Messages.PAGE_SIZE) @Min(1) @Max(Messages.MAX_PAGE_SIZE) int limit) {
		return this.messages.page(CurrentUser.id(jwt), matchId, cursor, limit);
	}

	@PostMapping("/api/matches/{matchId}/read")
	@Operation(summary = "Mark a match's messages read",
			description = "Marks every message up to `message_id` read by the caller (204), which clears them from "
					+ "`unread_count` in `GET /api/matches`; a mark never moves back. When it moves, both "
					+ "people's streams get `message_read` `{\"match_id\",\"reader_user_id\",\"message_id\"}`. 404 "
					+ "`no-such-match` when the match is not the caller's or has ended, 404 `no-such-message` "
					+ "when the message is not one of this match; 400 `invalid-request` without a `message_id`.")
	@ResponseStatus(HttpStatus.NO_CONTENT)
	@Refuses({ "no-such-match", "no-such-message" })
	void read(@AuthenticationPrincipal Jwt jwt, @PathVariable long matchId, @Valid @RequestBody ReadUpTo request) {
		this.messages.read(CurrentUser.id(jwt), matchId, Objects.requireNonNull(request.messageId()));
	}

	/**
	 * @param clientMessageId the sender's own id for this message, new for each one
	 */
	record SendMessage(@Nullable String text, @Nullable String clientMessageId) {

	}

	record ReadUpTo(@NotNull @Positive @Nullable Long messageId) {

	}

}
