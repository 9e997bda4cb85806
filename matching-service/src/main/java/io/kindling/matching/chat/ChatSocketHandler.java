package io.kindling.matching.chat;

import java.time.Clock;
import java.time.Instant;

import io.kindling.matching.chat.ChatFrames.BadFrame;
import io.kindling.matching.chat.ChatFrames.Outgoing;
import io.kindling.matching.chat.ChatRooms.Admission;
import io.kindling.matching.chat.ChatSockets.RoomSocket;
import io.kindling.matching.chat.ChatStore.Sent;
import io.kindling.redis.StreamEntryId;
import io.kindling.support.web.ProblemType;
import io.kindling.support.web.Refusal;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.DataAccessException;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.handler.ConcurrentWebSocketSessionDecorator;
import org.springframework.web.socket.handler.TextWebSocketHandler;

/**
 * One room socket's life: registered with its room on this instance (welcome and history
 * first), each frame its member sends checked and appended to the room's stream, answered
 * with an error frame when refused (the socket stays open), forgotten when it closes.
 */
final class ChatSocketHandler extends TextWebSocketHandler {

	static final String MEMBER = "kindling.chat.member";

	static final String AFTER = "kindling.chat.after";

	private static final String SOCKET = "kindling.chat.socket";

	/** How long one frame may take to reach a slow client before its socket is closed. */
	private static final int SEND_TIME_LIMIT_MS = 5_000;

	/** How much a slow client may have waiting before its socket is closed. */
	private static final int BUFFER_LIMIT_BYTES = 512 * 1024;

	private static final Logger log = LoggerFactory.getLogger(ChatSocketHandler.class);

	private final ChatSockets sockets;

	private final ChatStore store;

	private final ChatFrames frames;

	private final ChatProperties properties;

	private final Clock clock;

	ChatSocketHandler(ChatSockets sockets, ChatStore store, ChatFrames frames, ChatProperties properties, Clock clock) {
		this.sockets = sockets;
		this.store = store;
		this.frames = frames;
		this.properties = properties;
		this.clock = clock;
	}

	@Override
	public void afterConnectionEstablished(WebSocketSession session) throws Exception {
		session.setTextMessageSizeLimit(ChatConfiguration.MAX_FRAME_BYTES);
		Admission.Member member = (Admission.Member) session.getAttributes().get(MEMBER);
		StreamEntryId after = (StreamEntryId) session.getAttributes().get(AFTER);
		Instant now = this.clock.instant();
		// the room's people, as MySQL seats them, are in from its start; this also brings
		// back whom a failover dropped from the members, never one who left
		for (String present : member.present()) {
			this.store.seat(member.conversationId(), present, now, expireAt(member));
		}
		WebSocketSession concurrent = new ConcurrentWebSocketSessionDecorator(session, SEND_TIME_LIMIT_MS,
				BUFFER_LIMIT_BYTES);
		session.getAttributes()
			.put(SOCKET, this.sockets.open(concurrent, member.conversationId(), member.alias(), after));
	}

	@Override
	protected void handleTextMessage(WebSocketSession session, TextMessage message) {
		RoomSocket socket = (RoomSocket) session.getAttributes().get(SOCKET);
		Admission.Member member = (Admission.Member) session.getAttributes().get(MEMBER);
		if (socket == null) {
			return;
		}
		Outgoing outgoing;
		try {
			outgoing = this.frames.read(message.getPayload());
		}
		catch (BadFrame bad) {
			Refusal type = switch (bad.kind()) {
				case UNREADABLE -> ProblemType.UNREADABLE_REQUEST_BODY;
				case NOT_A_MESSAGE -> ProblemType.INVALID_REQUEST;
				case BAD_MESSAGE -> ChatRefusals.BAD_MESSAGE;
			};
			error(socket, type, bad.getMessage(), bad.clientMessageId());
			return;
		}
		Sent sent;
		try {
			sent = this.store.send(member.conversationId(), member.alias(), outgoing.text(), outgoing.clientMessageId(),
					this.clock.instant(), expireAt(member));
		}
		catch (DataAccessException ex) {
			log.warn("Could not append a message to room {}", member.conversationId(), ex);
			error(socket, ProblemType.UNAVAILABLE, "The message was not sent: try again in a moment.",
					outgoing.clientMessageId());
			return;
		}
		switch (sent) {
			case Sent.Appended appended -> {
				// every socket of the room hears it from the room's channel, this one too
			}
			case Sent.Duplicate duplicate -> {
				// sent before under this id: the socket has it, or gets it by after=
			}
			case Sent.RateLimited limited -> error(socket, ProblemType.RATE_LIMITED,
					"More than " + this.properties.messagesPerSecond() + " messages a second: this one was not "
							+ "sent; a message may go again in " + Math.max(1, limited.retryAfter().toMillis())
							+ " ms.",
					outgoing.clientMessageId());
			case Sent.NotMember notMember -> {
				error(socket, ChatRefusals.ROOM_ENDED, "You left this room.", outgoing.clientMessageId());
				this.sockets.close(socket, CloseStatus.NORMAL.withReason("left the room"));
			}
		}
	}

	@Override
	public void afterConnectionClosed(WebSocketSession session, CloseStatus status) {
		RoomSocket socket = (RoomSocket) session.getAttributes().get(SOCKET);
		if (socket != null) {
			this.sockets.closed(socket);
		}
	}

	@Override
	public void handleTransportError(WebSocketSession session, Throwable exception) {
		log.debug("A room socket failed: {}", exception.toString());
	}

	private void error(RoomSocket socket, Refusal type, String detail, @Nullable String clientMessageId) {
		this.sockets.send(socket, this.frames.error(type.status().value(), type.title(), detail, clientMessageId));
	}

	/** The room's keys live through its seats and the grace after. */
	private Instant expireAt(Admission.Member member) {
		return member.liveUntil().plus(this.properties.grace());
	}

}
