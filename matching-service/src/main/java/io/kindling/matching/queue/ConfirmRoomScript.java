package io.kindling.matching.queue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.kindling.redis.LuaScript;
import io.kindling.redis.ScriptCalls;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * {@code scripts/confirm_room.lua}: once a room's conversation is written, each
 * participant's claim becomes the written room and the others become its recent partners,
 * each in the participant's own slot, the calls for a room in one round trip where one
 * connection reaches them all.
 */
@Component
public class ConfirmRoomScript {

	/**
	 * The field of a written room claim naming the others of the room (partner ids,
	 * comma-separated); the claim's state does not read it.
	 */
	public static final String PARTNERS = "partners";

	private final LuaScript<Long> script = LuaScript.load("confirm_room", Long.class);

	private final ScriptCalls calls;

	ConfirmRoomScript(StringRedisTemplate redis) {
		this.calls = new ScriptCalls(redis);
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
			List<String> partnerIds = new ArrayList<>();
			for (QueueEntry other : room.participants()) {
				if (!other.equals(participant)) {
					partnerIds.add(RecentPartners.idOf(other.token()));
				}
			}
			calls.add(call(participant.token(), room.roomId(), room.claim(participant).written(conversationId),
					partnerIds, roomTtl, cooldown, now));
		}
		return this.calls.integers(this.script, calls).stream().map((answer) -> answer == 1L).toList();
	}

	/**
	 * One newcomer seated in a written room: its claim becomes the room, and the room's
	 * people its recent partners.
	 * @param partnerIds the partner ids of the room's people
	 * @return whether its claim was still being written into that room
	 */
	public boolean confirm(String token, TokenState.Matched written, List<String> partnerIds, Duration ttl,
			Duration cooldown, Instant now) {
		return this.calls
			.integers(this.script, List.of(call(token, written.roomId(), written, partnerIds, ttl, cooldown, now)))
			.get(0) == 1L;
	}

	/**
	 * The written claim also keeps its partners' ids ({@link #PARTNERS}), which a leave
	 * from a room of three gives its reopened seat: nobody who shared the room sits in it
	 * again.
	 */
	private static ScriptCalls.Call call(String token, String roomId, TokenState.Matched written,
			List<String> partnerIds, Duration ttl, Duration cooldown, Instant now) {
		List<String> args = new ArrayList<>(
				List.of(roomId, String.valueOf(ttl.toMillis()), String.valueOf(cooldown.toMillis()),
						String.valueOf(now.toEpochMilli()), String.valueOf(partnerIds.size())));
		args.addAll(partnerIds);
		written.fields().forEach((field, value) -> {
			args.add(field);
			args.add(value);
		});
		args.add(PARTNERS);
		args.add(String.join(",", partnerIds));
		return new ScriptCalls.Call(List.of(RedisKeys.claim(token), RedisKeys.partners(token)), args);
	}

}
