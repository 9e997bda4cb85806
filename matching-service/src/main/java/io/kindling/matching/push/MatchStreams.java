package io.kindling.matching.push;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.function.Supplier;

import io.kindling.matching.join.MatchingStatus;
import io.kindling.matching.session.Session;
import io.kindling.push.EventStreams;
import io.kindling.push.StreamLeases;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * The event streams open on this instance, by session token, each with the room it was
 * last told of. A {@code matched} event's id is its room id: a session is in one room at
 * a time and its state in Redis names it, so a stream (or a client reconnecting with that
 * id as its {@code Last-Event-ID}) is never sent the same room twice, and a client that
 * missed its room gets it from the state when it reconnects, on any instance.
 */
@Component
class MatchStreams extends EventStreams<AtomicReference<String>> {

	MatchStreams(StreamLeases leases) {
		super(leases);
	}

	/**
	 * Opens a stream for the token, sent the token's room at once if it is in one, unless
	 * the client was told of that room already.
	 * @param lastEventId the room the client was told of last, if any
	 * @param current reads the token's state
	 */
	SseEmitter open(String token, @Nullable String lastEventId, Duration timeout, Supplier<MatchingStatus> current)
			throws IOException {
		// a member_joined's id names its room too: the client was told of that room
		String toldRoom = (lastEventId != null) ? lastEventId.replace(MemberJoined.EVENT_ID_SUFFIX, "") : "";
		return open(token, new AtomicReference<>(toldRoom), timeout, (emitter) -> {
			if (current.get() instanceof MatchingStatus.Matched matched) {
				send(token, emitter, matched);
			}
		});
	}

	/** Sends {@code matched} to every stream this token has open here. */
	void matched(String token, MatchingStatus.Matched status) {
		forEachStream(token, (emitter, sentRoom) -> send(token, emitter, status));
	}

	/**
	 * Sends {@code member_joined} to every stream open here that was told of the room and
	 * is not the newcomer's, whose session is still in that room.
	 * @param stillIn whether a token's claim is still that room
	 */
	void memberJoined(MemberJoined joined, Predicate<String> stillIn) {
		for (String token : recipients()) {
			if (Session.keyOf(token).equals(joined.newcomerKey())) {
				continue;
			}
			List<SseEmitter> told = new ArrayList<>();
			forEachStream(token, (emitter, sentRoom) -> {
				if (joined.roomId().equals(sentRoom.get())) {
					told.add(emitter);
				}
			});
			if (!told.isEmpty() && stillIn.test(token)) {
				told.forEach((emitter) -> send(token, emitter, "member_joined", joined.body(), joined.eventId()));
			}
		}
	}

	/**
	 * Sends {@code matched} to one open stream, unless it was already told of this room:
	 * the pub/sub message and a catch-up after a lost subscription may both carry it.
	 */
	private void send(String token, SseEmitter emitter, MatchingStatus.Matched status) {
		AtomicReference<String> sentRoom = state(token, emitter);
		if (sentRoom == null || status.roomId().equals(sentRoom.getAndSet(status.roomId()))) {
			return;
		}
		send(token, emitter, "matched", status, status.roomId());
	}

}
