package io.kindling.matching.push;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
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
 * The event streams open on this instance, by session token, each with the id of the last
 * event it was told. A {@code matched} event's id is its room id, and a
 * {@code member_joined} event's the room id and {@code /member_joined}: a session is in
 * one room at a time, its state in Redis names it, and a room is backfilled once, so a
 * stream (or a client reconnecting with that id as its {@code Last-Event-ID}) is never
 * sent either event of a room twice, and a client that missed one gets it from the state
 * when it (re)connects, on any instance.
 */
@Component
class MatchStreams extends EventStreams<AtomicReference<String>> {

	MatchStreams(StreamLeases leases) {
		super(leases);
	}

	/**
	 * Opens a stream for the token, sent the token's room at once if it is in one, then
	 * the room's newcomer if one came, unless the client was told of them already.
	 * @param lastEventId the id of the last event the client was told, if any
	 * @param current reads the token's state
	 * @param seatedAfterNewcomer how many sit in a room once a newcomer was seated in it
	 * (asked only for a room the client was not told the newcomer of)
	 */
	SseEmitter open(String token, @Nullable String lastEventId, Duration timeout, Supplier<MatchingStatus> current,
			Function<MatchingStatus.Matched, OptionalInt> seatedAfterNewcomer) throws IOException {
		AtomicReference<String> told = new AtomicReference<>((lastEventId != null) ? lastEventId : "");
		return open(token, told, timeout, (emitter) -> {
			if (current.get() instanceof MatchingStatus.Matched matched) {
				send(token, emitter, matched);
				if (told.get().equals(matched.roomId())) {
					seatedAfterNewcomer.apply(matched)
						.ifPresent((members) -> tellNewcomer(token, emitter, MemberJoined.of(matched, members)));
				}
			}
		});
	}

	/** Sends {@code matched} to every stream this token has open here. */
	void matched(String token, MatchingStatus.Matched status) {
		forEachStream(token, (emitter, told) -> send(token, emitter, status));
	}

	/**
	 * Sends {@code member_joined} to every stream open here that was told of the room
	 * (and not of its newcomer yet) and is not the newcomer's, whose session is still in
	 * that room.
	 * @param stillIn whether a token's claim is still that room
	 */
	void memberJoined(MemberJoined joined, Predicate<String> stillIn) {
		for (String token : recipients()) {
			if (Session.keyOf(token).equals(joined.newcomerKey())) {
				continue;
			}
			List<SseEmitter> told = new ArrayList<>();
			forEachStream(token, (emitter, last) -> {
				if (joined.roomId().equals(last.get())) {
					told.add(emitter);
				}
			});
			if (!told.isEmpty() && stillIn.test(token)) {
				told.forEach((emitter) -> tellNewcomer(token, emitter, joined));
			}
		}
	}

	/**
	 * Whether a stream of this token open here was told of the room and not of its
	 * newcomer.
	 */
	boolean awaitsNewcomer(String token, String roomId) {
		AtomicBoolean awaits = new AtomicBoolean();
		forEachStream(token, (emitter, told) -> awaits.compareAndSet(false, roomId.equals(told.get())));
		return awaits.get();
	}

	/**
	 * Sends {@code member_joined} to this token's streams open here that were told of the
	 * room and not of its newcomer: a catch-up after a lost subscription.
	 */
	void memberJoined(String token, MemberJoined joined) {
		forEachStream(token, (emitter, told) -> tellNewcomer(token, emitter, joined));
	}

	/**
	 * Sends {@code matched} to one open stream, unless it was already told of this room
	 * (or of its newcomer): the pub/sub message and a catch-up after a lost subscription
	 * may both carry it.
	 */
	private void send(String token, SseEmitter emitter, MatchingStatus.Matched status) {
		AtomicReference<String> told = state(token, emitter);
		if (told == null) {
			return;
		}
		String last;
		do {
			last = told.get();
			if (MemberJoined.roomOf(last).equals(status.roomId())) {
				return;
			}
		}
		while (!told.compareAndSet(last, status.roomId()));
		send(token, emitter, "matched", status, status.roomId());
	}

	/**
	 * Sends {@code member_joined} to one open stream that was told of the room and not of
	 * its newcomer: the pub/sub message and the stream's opening may both carry it.
	 */
	private void tellNewcomer(String token, SseEmitter emitter, MemberJoined joined) {
		AtomicReference<String> told = state(token, emitter);
		if (told == null) {
			return;
		}
		// compared by equals, then swapped by identity: the ids come from different reads
		String last = told.get();
		while (last.equals(joined.roomId())) {
			if (told.compareAndSet(last, joined.eventId())) {
				send(token, emitter, "member_joined", joined.body(), joined.eventId());
				return;
			}
			last = told.get();
		}
	}

}
