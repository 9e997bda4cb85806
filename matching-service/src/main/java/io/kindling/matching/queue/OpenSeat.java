package io.kindling.matching.queue;

import java.util.List;

/**
 * A seat a leave reopened in a room of three, for one joiner of the room's queue.
 *
 * @param queue the room's topic and size, where the seat is offered
 * @param members the partner ids of the room's people, the one who left included: none of
 * them, nor anyone whose recent partner one of them is, takes the seat
 */
public record OpenSeat(String roomId, long conversationId, MatchQueue queue, List<String> members) {

	public OpenSeat {
		members = List.copyOf(members);
	}

}
