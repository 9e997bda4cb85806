package io.kindling.matching.chat;

import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

import io.kindling.matching.chat.ChatRooms.Admission;
import io.kindling.matching.session.OrStreamTicket;
import io.kindling.matching.session.Session;
import io.kindling.redis.StreamEntryId;
import io.kindling.support.web.ProblemType;
import io.kindling.support.web.Refuses;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.server.ServletServerHttpRequest;
import org.springframework.http.server.ServletServerHttpResponse;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.socket.WebSocketHandler;
import org.springframework.web.socket.server.HandshakeHandler;

/**
 * Opens a room's socket: the checks, then the upgrade. Refusals come before the upgrade,
 * as problem details like every other answer of the service, since a browser's WebSocket
 * never shows a failed handshake's body but a client that is not a browser does.
 */
@RestController
class ChatController {

	private final ChatRooms rooms;

	private final HandshakeHandler handshake;

	private final WebSocketHandler sockets;

	private final Clock clock;

	ChatController(ChatRooms rooms, HandshakeHandler chatHandshake, WebSocketHandler chatSocketHandler, Clock clock) {
		this.rooms = rooms;
		this.handshake = chatHandshake;
		this.sockets = chatSocketHandler;
		this.clock = clock;
	}

	@GetMapping("/ws/rooms/{conversationId}")
	@Operation(summary = "Open a room's conversation (WebSocket)",
			description = "Upgrades to a WebSocket for one of the room's people while the room lives (101). Frames are "
					+ "JSON text. The server sends `welcome` `{\"you\",\"members\"}`, then the room's entries: "
					+ "`message` `{\"id\",\"from\",\"text\",\"sent_at\"}` (the sender's own copy also carries its "
					+ "`client_message_id`), `joined` and `left` `{\"id\",\"member\"}`, and `error` "
					+ "`{\"status\",\"title\",\"detail\"}`; the client sends `{\"type\":\"message\",\"text\","
					+ "\"client_message_id\"}`. Members are aliases by seat (A, B, C). Without `after` the socket "
					+ "first gets the room's history (the last `kindling.matching.chat.history` entries); with "
					+ "`after` exactly the entries after that id. A message is 1 to 1,000 characters without "
					+ "control characters but the newline, at most 5 a second (bursts of 10): else an error frame "
					+ "(400 or 429) and the socket stays open. Leaving the room (`DELETE /api/matching`) closes its "
					+ "sockets (1000) and tells the others `left`. Opens with the session's bearer token, or for a "
					+ "browser with `?ticket=` from `POST /api/matching/events/tickets`. Refused before the "
					+ "upgrade: 401 bad credentials or ticket, 403 `not-in-room`, 404 `no-such-room`, 410 "
					+ "`room-ended` (the room ended or the session left it), 400 `invalid-request` for a request "
					+ "that is not a WebSocket handshake or an `after` that is no entry id.")
	@ApiResponse(responseCode = "101", description = "Switching Protocols: the room's WebSocket")
	@Refuses({ "not-in-room", "no-such-room", "room-ended" })
	void open(@OrStreamTicket Session session, @PathVariable long conversationId,
			@Parameter(description = "The id of the last frame the client got: the socket sends what came "
					+ "after it") @RequestParam(required = false) @Nullable String after,
			HttpServletRequest request, HttpServletResponse response) {
		if (!"websocket".equalsIgnoreCase(request.getHeader(HttpHeaders.UPGRADE))) {
			throw ProblemType.INVALID_REQUEST
				.refused("GET /ws/rooms/{conversation_id} is a WebSocket handshake: Upgrade: websocket.");
		}
		StreamEntryId from = null;
		if (after != null) {
			from = StreamEntryId.parse(after)
				.orElseThrow(() -> ProblemType.INVALID_REQUEST
					.refused("after must be the id of a frame this room's socket sent, such as 1767225600000-0."));
		}
		Admission admission = this.rooms.admit(conversationId, session.key(), this.clock.instant());
		Admission.Member member = switch (admission) {
			case Admission.Member admitted -> admitted;
			case Admission.Outside outside ->
				throw ChatRefusals.NOT_IN_ROOM.refused("You are not one of the people of room " + conversationId + ".");
			case Admission.Ended ended -> throw ChatRefusals.ROOM_ENDED
				.refused("Room " + conversationId + " ended for you: it is over, or you left it.");
			case Admission.NoSuchRoom none ->
				throw ChatRefusals.NO_SUCH_ROOM.refused("There is no room " + conversationId + ".");
		};
		Map<String, Object> attributes = new HashMap<>();
		attributes.put(ChatSocketHandler.MEMBER, member);
		if (from != null) {
			attributes.put(ChatSocketHandler.AFTER, from);
		}
		ServletServerHttpResponse upgraded = new ServletServerHttpResponse(response);
		try {
			this.handshake.doHandshake(new ServletServerHttpRequest(request), upgraded, this.sockets, attributes);
		}
		finally {
			upgraded.close();
		}
	}

}
