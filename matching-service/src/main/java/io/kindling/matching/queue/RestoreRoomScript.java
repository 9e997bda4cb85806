package io.kindling.matching.queue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.kindling.redis.LuaScript;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * {@code scripts/restore_room.lua}: puts a popped room's people back where they waited,
 * in the queue's slot, once their claims are back to waiting.
 */
@Component
public class RestoreRoomScript {

	private final LuaScript<Long> script = LuaScript.load("restore_room", Long.class);

	private final StringRedisTemplate redis;

	RestoreRoomScript(StringRedisTemplate redis) {
		this.redis = redis;
	}

	/**
	 * @param back the participants whose claims went back to waiting: their entries
	 * return with their old scores; the others' popped records are only forgotten
	 * @return how many went back
	 */
	public long restore(PoppedRoom room, Set<QueueEntry> back) {
		// a party's two people share one member: it goes back once, if either does
		Map<String, QueueEntry> members = new LinkedHashMap<>();
		Map<String, Boolean> backs = new LinkedHashMap<>();
		for (QueueEntry participant : room.participants()) {
			members.putIfAbsent(participant.member(), participant);
			backs.merge(participant.member(), back.contains(participant), Boolean::logicalOr);
		}
		MatchQueue queue = room.queue();
		List<String> args = new ArrayList<>();
		members.forEach((member, participant) -> {
			args.add(member);
			args.add(String.valueOf(participant.scoreIn(queue)));
			args.add(backs.get(member) ? "1" : "0");
			args.add(room.partnerLists().getOrDefault(member, ""));
		});
		return this.script.run(this.redis, List.of(queue.key(), queue.poppedKey(), queue.entryPartnersKey()),
				args.toArray(String[]::new));
	}

}
