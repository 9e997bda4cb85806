package io.kindling.matching.push;

import io.kindling.matching.MatchingProperties;
import io.kindling.matching.join.JoinService;
import io.kindling.matching.join.MatchingStatus;
import io.kindling.matching.session.Session;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

@RestController
class EventsController {

	private final MatchStreams streams;

	private final JoinService joins;

	private final MatchingProperties properties;

	EventsController(MatchStreams streams, JoinService joins, MatchingProperties properties) {
		this.streams = streams;
		this.joins = joins;
		this.properties = properties;
	}

	/**
	 * A stream that gets {@code matched} the moment this session's room forms. A room
	 * that formed before the stream opened is sent at once.
	 */
	@GetMapping(path = "/api/matching/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
	SseEmitter events(Session session) throws Exception {
		SseEmitter emitter = new SseEmitter(this.properties.waitTimeout().plus(this.properties.roomTtl()).toMillis());
		// registered before the status is read, so a room forming in between is not
		// missed
		this.streams.add(session.token(), emitter);
		emitter.send(SseEmitter.event().comment("subscribed"));
		MatchingStatus status = this.joins.status(session);
		if (status instanceof MatchingStatus.Matched matched) {
			this.streams.send(session.token(), emitter, matched);
		}
		return emitter;
	}

}
