package io.kindling.matching.queue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.kindling.redis.LuaScript;

import org.springframework.stereotype.Component;

/**
 * {@code scripts/confirm_room.lua}: once a room's conversation is written, each
 * participant's claim becomes the written room and the others become its recent partners,
 * each in the participant's own slot, the calls for a room in one round trip where one
 * connection reaches them all.
 */
@Component
public class ConfirmRoomScript {

	private final LuaScript<Long> script = LuaScript.load("confirm_room", Long.class);

	private final ScriptCalls calls;

	ConfirmRoomScript(ScriptCalls calls) {
		this.calls = calls;
	}

	/**
	 * @param cooldown how long the participants stay each other's recent partners (zero
	 * records none)
	 * @return for each participant, in order, whether its claim was still the room's
	 */
	public List<Boolean> confirm(PoppedRoom room, long conversationId, Duration roomTtl, Duration cooldown,
			Instant now) {
		List<ScriptCalls.Call> calls = new ArrayList<>(room.participants().size());
		for (QueueEntry participant : room.participants()) {
			List<String> args = new ArrayList<>(
					List.of(room.roomId(), String.valueOf(roomTtl.toMillis()), String.valueOf(cooldown.toMillis()),
							String.valueOf(now.toEpochMilli()), String.valueOf(room.participants().size() - 1)));
			for (QueueEntry other : room.participants()) {
				if (!other.equals(participant)) {
					args.add(RecentPartners.idOf(other.token()));
				}
			}
			room.claim(participant).written(conversationId).fields().forEach((field, value) -> {
				args.add(field);
				args.add(value);
			});
			String token = participant.token();
			calls.add(new ScriptCalls.Call(List.of(RedisKeys.claim(token), RedisKeys.partners(token)), args));
		}
		return this.calls.integers(this.script, calls).stream().map((answer) -> answer == 1L).toList();
	}

}
