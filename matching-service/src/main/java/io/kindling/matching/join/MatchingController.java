package io.kindling.matching.join;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;

import io.kindling.matching.session.Session;
import io.kindling.support.web.Refuses;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

@RestController
class MatchingController {

	private final JoinService joins;

	MatchingController(JoinService joins) {
		this.joins = joins;
	}

	/**
	 * The session comes first, so a request without one is 401 before its body is read.
	 */
	@PostMapping("/api/matching")
	@Operation(summary = "Join a topic's queue",
			description = "Puts the session in the queue of `topic_id` for a room of `size` (2 or 3), or in the queue "
					+ "of each of `topic_ids` (1 to 5 distinct topics: a room with anyone who shares one of "
					+ "them, whose `topic_id` is the one shared): 202 `waiting` "
					+ "with an estimated wait, or 200 `matched` when this call formed the room (a size-3 queue "
					+ "may form a room of two after a while; `room_type` says how many sit in it). With "
					+ "`fallback_after_s` (10 to 300) the session may also, once it has waited that long, be "
					+ "matched with anyone else of the same size who opted in and waited past their own, "
					+ "whatever the topic: such a room answers `fallback: true` and the topic of whoever "
					+ "waited longest. 409 " + "`already-joined` when the session already waits or sits in a room, 400 "
					+ "`topics-invalid` for a list empty, too long or with a topic twice, or with both or neither "
					+ "of `topic_id` and `topic_ids`, 400 `topic-unavailable` for an unknown or retired topic, 403 `banned`, 429 `rate-limited` "
					+ "with `Retry-After` past the per-address limit. With `party_id`, a party's creator joins for "
					+ "its two members as one ticket, for rooms of three only (400 `party-size`): 404 "
					+ "`no-such-party` (unknown, expired, or not the caller's), 403 `not-party-creator` for its "
					+ "second member, 409 `party-incomplete` before anyone joined it, and `banned` or "
					+ "`already-joined` for either member; a party does not fall back to anyone (400 "
					+ "`party-fallback` with `fallback_after_s`).")
	@ApiResponse(responseCode = "200", description = "Matched at once", useReturnTypeSchema = true)
	@ApiResponse(responseCode = "202", description = "Waiting", useReturnTypeSchema = true)
	@Refuses({ "topics-invalid", "party-size", "party-fallback", "rate-limited", "no-such-party", "not-party-creator",
			"party-incomplete", "banned", "topic-unavailable", "already-joined" })
	ResponseEntity<MatchingStatus> join(Session session, @Valid @RequestBody JoinRequest request,
			HttpServletRequest http) {
		String partyId = request.partyId();
		MatchingStatus status = (partyId == null)
				? this.joins.join(session, http.getRemoteAddr(), request.topics(), request.size(),
						request.fallbackAfter())
				: this.joins.joinParty(session, http.getRemoteAddr(), request.topics(), request.size(), partyId,
						request.fallbackAfter());
		return ResponseEntity.status((status instanceof MatchingStatus.Matched) ? HttpStatus.OK : HttpStatus.ACCEPTED)
			.body(status);
	}

	@GetMapping("/api/matching")
	@Operation(summary = "Get the session's matching status",
			description = "`idle`, `waiting` (the queue and an estimated wait) or `matched` (the room and its "
					+ "conversation); `status` tells which. A client without the event stream polls this.")
	MatchingStatus status(Session session, HttpServletRequest http) {
		return this.joins.status(session, http.getRemoteAddr());
	}

	@DeleteMapping("/api/matching")
	@Operation(summary = "Leave the queue or the room",
			description = "Takes the session out of its queue or its room; 204, also when it was idle.")
	@ResponseStatus(HttpStatus.NO_CONTENT)
	void leave(Session session) {
		this.joins.leave(session);
	}

}
