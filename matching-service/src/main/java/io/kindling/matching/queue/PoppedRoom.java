package io.kindling.matching.queue;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A room the forming script took off a queue; its conversation is not written yet.
 *
 * @param roomId the room's id
 * @param queue where its people waited
 * @param fallback true when a size-3 queue formed a room of two after the fallback wait
 * @param formedAt when it formed, by the service's clock
 * @param participants oldest first
 * @param partnerLists by member, the recent partners each entry carried (none listed for
 * those without), which go back with an entry put back into the queue
 */
public record PoppedRoom(String roomId, MatchQueue queue, boolean fallback, Instant formedAt,
		List<QueueEntry> participants, Map<String, String> partnerLists) {

	public PoppedRoom(String roomId, MatchQueue queue, boolean fallback, Instant formedAt,
			List<QueueEntry> participants) {
		this(roomId, queue, fallback, formedAt, participants, Map.of());
	}

	public PoppedRoom {
		partnerLists = Map.copyOf(partnerLists);
	}

	public int roomType() {
		return this.participants.size();
	}

	public List<String> tokens() {
		return this.participants.stream().map(QueueEntry::token).toList();
	}

	/** The claim each participant moves to while the conversation is written. */
	public TokenState.Forming claim(QueueEntry participant) {
		return new TokenState.Forming(this.queue, participant.since(), this.roomId, roomType(), this.formedAt);
	}

}
