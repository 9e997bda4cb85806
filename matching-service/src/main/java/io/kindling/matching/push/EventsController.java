package io.kindling.matching.push;

import io.kindling.matching.MatchingProperties;
import io.kindling.matching.join.JoinService;
import io.kindling.matching.session.OrStreamTicket;
import io.kindling.matching.session.Session;
import io.kindling.matching.session.SessionService;
import io.kindling.push.LastEventId;
import io.kindling.push.StreamTickets.IssuedTicket;
import io.kindling.support.web.Refuses;
import io.swagger.v3.oas.annotations.Operation;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

@RestController
class EventsController {

	private final MatchStreams streams;

	private final JoinService joins;

	private final SessionService sessions;

	private final MatchingProperties properties;

	EventsController(MatchStreams streams, JoinService joins, SessionService sessions, MatchingProperties properties) {
		this.streams = streams;
		this.joins = joins;
		this.sessions = sessions;
		this.properties = properties;
	}

	/**
	 * A stream that gets {@code matched} the moment this session's room forms, and
	 * {@code member_joined} when a newcomer takes a seat in it. A room that formed (or a
	 * newcomer who came) before the stream opened is sent at once, unless the client
	 * names it as the last event it got.
	 */
	@GetMapping(path = "/api/matching/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
	@Operation(summary = "Open the session's match event stream",
			description = "Server-sent events: a `matched` event the moment the session's room forms, its data the "
					+ "body `GET /api/matching` answers when matched and its id the room id. A room formed "
					+ "before the stream opened is sent at once, unless the client names it as the last event "
					+ "it got: reconnect with `Last-Event-ID`, or with `last_event_id` beside a new ticket, and "
					+ "the same room is not sent twice. When a newcomer takes the seat someone left in the "
					+ "session's room of three, a `member_joined` event: `room_id`, `conversation_id`, `room_type`, "
					+ "`topic_id` and `members` (how many sit in the room now), its id `<room_id>/member_joined`; "
					+ "a newcomer who came before the stream opened is sent at once after the room, unless the "
					+ "client names that event as the last it got. Opens with the session token, or for a browser's "
					+ "EventSource with `?ticket=` from `POST /api/matching/events/tickets`. A caller holds at most four streams at "
					+ "once by default, across instances: one more is 429 `too-many-streams`.")
	@Refuses("too-many-streams")
	SseEmitter events(@OrStreamTicket Session session, LastEventId lastEventId) throws Exception {
		return this.streams.open(session.token(), lastEventId.value(),
				this.properties.waitTimeout().plus(this.properties.roomTtl()), () -> this.joins.status(session),
				this.joins::seatedAfterNewcomer);
	}

	/**
	 * A ticket that opens this session's stream once, within a minute:
	 * {@code GET /api/matching/events?ticket=…}, for a browser's {@code EventSource}.
	 */
	@PostMapping("/api/matching/events/tickets")
	@Operation(summary = "Issue a stream ticket",
			description = "A ticket that opens this session's event stream once, within a minute (`GET "
					+ "/api/matching/events?ticket=...`), so that a browser's EventSource can open it without "
					+ "the session token in the URL. At most twenty a minute by "
					+ "default: one more is 429 `rate-limited`.")
	@ResponseStatus(HttpStatus.CREATED)
	@Refuses("rate-limited")
	IssuedTicket ticket(Session session) {
		return this.sessions.issueTicket(session);
	}

}
