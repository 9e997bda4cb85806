package io.kindling.matching.queue;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A room the forming script took off a queue; its conversation is not written yet.
 *
 * @param roomId the room's id
 * @param queue where its people waited
 * @param fallback true when a size-3 queue formed a room of two after the fallback wait
 * (the size fallback; a room from a fallback queue is {@link #topicFallback()})
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

	/** True when the room formed in a fallback queue, whatever its people's topics. */
	public boolean topicFallback() {
		return this.queue.isAnyTopic();
	}

	/**
	 * The room's topic: its queue's, or in a fallback queue the first topic named by the
	 * participant who has waited longest.
	 */
	public long topicId() {
		if (!topicFallback()) {
			return this.queue.topicId();
		}
		QueueEntry longest = this.participants.stream().min(Comparator.comparing(QueueEntry::since)).orElseThrow();
		return longest.waiting(this.queue).queue().topicId();
	}

	/** The claim each participant moves to while the conversation is written. */
	public TokenState.Forming claim(QueueEntry participant) {
		return new TokenState.Forming(new MatchQueue(topicId(), this.queue.size()), participant.since(), this.roomId,
				roomType(), this.formedAt, topicFallback());
	}

}
