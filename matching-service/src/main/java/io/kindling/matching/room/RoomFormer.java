package io.kindling.matching.room;

import java.time.Clock;
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
		return tryForm(queue, "").formed();
	}

	/**
	 * What one try at forming a room did, for a caller who just joined the queue.
	 *
	 * @param formed the room formed by this try, if any
	 * @param callerQueued false when the caller left the queue for a room that another
	 * instance, the sweeper or a poll formed since the join
	 */
	public record Attempt(Optional<RoomFormed> formed, boolean callerQueued) {

	}

	/** Forms at most one room from the queue the caller just joined. */
	public Attempt tryForm(MatchQueue queue, String caller) {
		FormRoomScript.Result result = this.formRoom.form(queue, UUID.randomUUID().toString(), this.clock.instant(),
				caller);
		this.metrics.timedOut(queue, result.timedOut());
		this.metrics.waiting(queue, result.stillWaiting());
		if (result.room().isEmpty()) {
			return new Attempt(Optional.empty(), result.callerQueued());
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
			// whoever was restored is queued again
			return new Attempt(Optional.empty(), true);
		}
		List<String> stillInRoom = this.confirmRoom.confirm(room, conversationId);
		this.metrics.formed(room);
		RoomFormed formed = new RoomFormed(room.roomId(), conversationId, room.roomType(), queue.topicId(),
				room.formedAt(), stillInRoom);
		this.events.publishEvent(formed);
		return new Attempt(Optional.of(formed), result.callerQueued());
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
