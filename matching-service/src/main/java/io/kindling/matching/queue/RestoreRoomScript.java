package io.kindling.matching.queue;

import java.util.ArrayList;
import java.util.List;

import io.kindling.redis.LuaScript;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/** {@code scripts/restore_room.lua}: puts a room's people back where they waited. */
@Component
public class RestoreRoomScript {

	private final LuaScript<Long> script = LuaScript.load("restore_room", Long.class);

	private final StringRedisTemplate redis;

	RestoreRoomScript(StringRedisTemplate redis) {
		this.redis = redis;
	}

	/**
	 * @return how many went back (those who left meanwhile stay out)
	 */
	public long restore(PoppedRoom room) {
		MatchQueue queue = room.queue();
		List<String> args = new ArrayList<>(List.of(RedisKeys.PREFIX, room.roomId(), String.valueOf(queue.topicId()),
				String.valueOf(queue.size())));
		for (PoppedRoom.Participant participant : room.participants()) {
			args.add(participant.token());
			args.add(String.valueOf(participant.since().toEpochMilli()));
		}
		return this.script.run(this.redis, List.of(queue.key(), RedisKeys.ACTIVE_QUEUES), args.toArray(String[]::new));
	}

}
