package io.kindling.matching.room;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import io.kindling.matching.queue.ConfirmRoomScript;
import io.kindling.matching.queue.FormRoomScript;
import io.kindling.matching.queue.MatchQueue;
import io.kindling.matching.queue.PoppedRoom;
import io.kindling.matching.queue.RestoreRoomScript;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.TransactionException;

/**
 * Tries to form a room from a queue: the atomic pop in Redis, then the conversation in
 * MySQL, then the conversation id back into the room keys. Joins, polls and the sweeper
 * all come here.
 */
@Service
public class RoomFormer {

	private static final Logger log = LoggerFactory.getLogger(RoomFormer.class);

	private final FormRoomScript formRoom;

	private final ConfirmRoomScript confirmRoom;

	private final RestoreRoomScript restoreRoom;

	private final ConversationWriter conversations;

	private final ApplicationEventPublisher events;

	private final RoomMetrics metrics;

	private final Clock clock;

	RoomFormer(FormRoomScript formRoom, ConfirmRoomScript confirmRoom, RestoreRoomScript restoreRoom,
			ConversationWriter conversations, ApplicationEventPublisher events, RoomMetrics metrics, Clock clock) {
		this.formRoom = formRoom;
		this.confirmRoom = confirmRoom;
		this.restoreRoom = restoreRoom;
		this.conversations = conversations;
		this.events = events;
		this.metrics = metrics;
		this.clock = clock;
	}

	/**
	 * Forms at most one room from the queue.
	 * @return the room, when one formed and its conversation was written
	 */
	public Optional<RoomFormed> tryForm(MatchQueue queue) {
		String roomId = UUID.randomUUID().toString();
		return written(queue, this.formRoom.form(queue, roomId, now()));
	}

	/**
	 * What a join did.
	 *
	 * @param joined false when the token was already waiting somewhere or in a room
	 * @param formed the room the join formed, if any: it holds the oldest in the queue,
	 * which may or may not include the joiner
	 */
	public record Attempt(boolean joined, Optional<RoomFormed> formed) {

	}

	/**
	 * Puts the token in the queue and tries to form a room, the two as one Redis call.
	 * @param now when the token began to wait
	 */
	public Attempt join(String token, MatchQueue queue, Instant now) {
		String roomId = UUID.randomUUID().toString();
		return this.formRoom.join(token, queue, roomId, now)
			.map((result) -> new Attempt(true, written(queue, result)))
			.orElseGet(() -> new Attempt(false, Optional.empty()));
	}

	/** Writes the conversation of the room a script popped, if it popped one. */
	private Optional<RoomFormed> written(MatchQueue queue, FormRoomScript.Result result) {
		this.metrics.timedOut(queue, result.timedOut());
		this.metrics.waiting(queue, result.stillWaiting());
		if (result.room().isEmpty()) {
			return Optional.empty();
		}
		PoppedRoom room = result.room().get();
		long conversationId;
		try {
			conversationId = this.conversations.write(room);
		}
		catch (DataAccessException | TransactionException ex) {
			// wasting one wait beats a conversation written twice: everyone goes back to
			// their place in the queue
			long restored = this.restoreRoom.restore(room);
			this.metrics.writeFailed(queue);
			this.metrics.waiting(queue, result.stillWaiting() + restored);
			log.warn(
					"Could not write the conversation of room {} (topic {}, size {}); {} participant(s) back in the queue",
					room.roomId(), queue.topicId(), queue.size(), restored, ex);
			return Optional.empty();
		}
		List<String> stillInRoom = this.confirmRoom.confirm(room, conversationId);
		this.metrics.formed(room);
		RoomFormed formed = new RoomFormed(room.roomId(), conversationId, room.roomType(), queue.topicId(),
				room.formedAt(), stillInRoom);
		this.events.publishEvent(formed);
		return Optional.of(formed);
	}

	/**
	 * Now to the millisecond, as the room keys in Redis hold it: the {@code matched_at} a
	 * caller hears from its join, a poll or the push, and the conversation's
	 * {@code formed_at}, are one time.
	 */
	public Instant now() {
		return this.clock.instant().truncatedTo(ChronoUnit.MILLIS);
	}

	/** Forms rooms from the queue until none forms, at most {@code limit}. */
	public int formAll(MatchQueue queue, int limit) {
		int formed = 0;
		while (formed < limit && tryForm(queue).isPresent()) {
			formed++;
		}
		return formed;
	}

}
