package io.kindling.swipe.push;

import io.kindling.push.LastEventId;
import io.kindling.push.StreamTickets;
import io.kindling.push.StreamTickets.IssuedTicket;
import io.kindling.support.web.Refuses;
import io.kindling.swipe.security.CurrentUser;
import io.swagger.v3.oas.annotations.Operation;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

@RestController
class EventsController {

	private final UserStreams streams;

	private final StreamTickets tickets;

	EventsController(UserStreams streams, StreamTickets tickets) {
		this.streams = streams;
		this.tickets = tickets;
	}

	/**
	 * The caller's events ({@code match_created}, {@code match_removed}), opened with the
	 * bearer JWT or a stream ticket ({@code ?ticket=}, checked by the security filters).
	 */
	@GetMapping(path = "/api/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
	@Operation(summary = "Open the caller's match event stream",
			description = "Server-sent events as matches are made or ended: `match_created` and `match_removed`, "
					+ "each `{\"match_id\",\"user_id\",\"matched_at\"}` with `user_id` the other person (a "
					+ "match ended by a block is `match_removed` too). Opened without an id, the stream first "
					+ "sends a `position` event, `{\"last_event_id\"}`, with that same id; every event has an "
					+ "id, and a client that reconnects with `Last-Event-ID` (or `last_event_id` beside a new "
					+ "ticket) gets what it missed. Opens with the bearer JWT, or for a browser's EventSource "
					+ "with `?ticket=` from `POST /api/events/tickets`. A caller holds at most four streams at "
					+ "once by default, across instances: one more is 429 `too-many-streams`.")
	@Refuses("too-many-streams")
	SseEmitter events(@AuthenticationPrincipal Object caller, LastEventId lastEventId) throws Exception {
		return this.streams.open(CurrentUser.ofPrincipal(caller), lastEventId.value());
	}

	/**
	 * A ticket that opens the caller's stream once, within a minute:
	 * {@code GET /api/events?ticket=…}, for a browser's {@code EventSource}.
	 */
	@PostMapping("/api/events/tickets")
	@Operation(summary = "Issue a stream ticket",
			description = "A ticket that opens the caller's event stream once, within a minute (`GET "
					+ "/api/events?ticket=...`), so that a browser's EventSource can open it without the JWT in "
					+ "the URL. At most twenty a minute by " + "default: one more is 429 `rate-limited`.")
	@ResponseStatus(HttpStatus.CREATED)
	@Refuses("rate-limited")
	IssuedTicket ticket(@AuthenticationPrincipal Jwt jwt) {
		return this.tickets.issue(String.valueOf(CurrentUser.id(jwt)));
	}

}
