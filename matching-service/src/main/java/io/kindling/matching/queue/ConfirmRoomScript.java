package io.kindling.matching.queue;

import java.util.ArrayList;
import java.util.List;

import io.kindling.matching.MatchingProperties;
import io.kindling.redis.LuaScript;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/** {@code scripts/confirm_room.lua}: stores the conversation id and the room TTL. */
@Component
public class ConfirmRoomScript {

	private final LuaScript<List> script = LuaScript.load("confirm_room", List.class);

	private final StringRedisTemplate redis;

	private final MatchingProperties properties;

	ConfirmRoomScript(StringRedisTemplate redis, MatchingProperties properties) {
		this.redis = redis;
		this.properties = properties;
	}

	/**
	 * @return the tokens still in the room (the others left while it was written)
	 */
	public List<String> confirm(PoppedRoom room, long conversationId) {
		List<String> args = new ArrayList<>(List.of(RedisKeys.PREFIX, room.roomId(), String.valueOf(conversationId),
				String.valueOf(this.properties.roomTtl().toMillis())));
		args.addAll(room.tokens());
		List<?> confirmed = this.script.run(this.redis, List.of(), args.toArray(String[]::new));
		return confirmed.stream().map(String::valueOf).toList();
	}

}
