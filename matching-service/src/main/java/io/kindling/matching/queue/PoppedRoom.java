package io.kindling.matching.queue;

import java.time.Instant;
import java.util.List;

/**
 * A room the forming script took off a queue; its conversation is not written yet.
 *
 * @param roomId the room's id (also the room key's {@code room_id})
 * @param queue where its people waited
 * @param fallback true when a size-3 queue formed a room of two after the fallback wait
 * @param formedAt when it formed, by the service's clock
 * @param participants oldest first, each with when it began waiting
 */
public record PoppedRoom(String roomId, MatchQueue queue, boolean fallback, Instant formedAt,
		List<Participant> participants) {

	public int roomType() {
		return this.participants.size();
	}

	public List<String> tokens() {
		return this.participants.stream().map(Participant::token).toList();
	}

	public record Participant(String token, Instant since) {

	}

}
