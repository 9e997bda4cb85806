package io.kindling.matching.queue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.kindling.matching.MatchingProperties;
import io.kindling.redis.LuaScript;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/** {@code scripts/form_room.lua}: drops timed-out entries and pops at most one room. */
@Component
public class FormRoomScript {

	/**
	 * Bounds one call's work when many entries time out at once (e.g. after an outage).
	 */
	private static final int MOST_DROPPED_PER_CALL = 500;

	private final LuaScript<List> script = LuaScript.load("form_room", List.class);

	private final StringRedisTemplate redis;

	private final MatchingProperties properties;

	FormRoomScript(StringRedisTemplate redis, MatchingProperties properties) {
		this.redis = redis;
		this.properties = properties;
	}

	public Result form(MatchQueue queue, String roomId, Instant now) {
		return form(queue, roomId, now, "");
	}

	/**
	 * @param caller the token of whoever just joined this queue, to learn whether it is
	 * still queued after this call ({@link Result#callerQueued()})
	 */
	public Result form(MatchQueue queue, String roomId, Instant now, String caller) {
		long nowMillis = now.toEpochMilli();
		List<?> result = this.script.run(this.redis, List.of(queue.key(), RedisKeys.ACTIVE_QUEUES), RedisKeys.PREFIX,
				String.valueOf(queue.size()), String.valueOf(queue.topicId()), String.valueOf(nowMillis),
				String.valueOf(nowMillis - this.properties.waitTimeout().toMillis()),
				String.valueOf(nowMillis - this.properties.fallbackAfter().toMillis()), roomId,
				String.valueOf(this.properties.roomPendingTtl().toMillis()), String.valueOf(MOST_DROPPED_PER_CALL),
				caller);
		int timedOut = number(result.get(0));
		int roomSize = number(result.get(1));
		int stillWaiting = number(result.get(2));
		boolean callerQueued = number(result.get(4)) == 1;
		if (roomSize == 0) {
			return new Result(timedOut, stillWaiting, Optional.empty(), callerQueued);
		}
		boolean fallback = number(result.get(3)) == 1;
		List<PoppedRoom.Participant> participants = new ArrayList<>(roomSize);
		for (int i = 5; i + 1 < result.size(); i += 2) {
			participants.add(new PoppedRoom.Participant(String.valueOf(result.get(i)),
					Instant.ofEpochMilli((long) Double.parseDouble(String.valueOf(result.get(i + 1))))));
		}
		return new Result(timedOut, stillWaiting,
				Optional.of(new PoppedRoom(roomId, queue, fallback, now, List.copyOf(participants))), callerQueued);
	}

	private static int number(Object value) {
		return Integer.parseInt(String.valueOf(value));
	}

	/**
	 * @param timedOut how many were dropped for waiting past the timeout
	 * @param stillWaiting how many are left in the queue
	 * @param room the room popped, if one formed
	 * @param callerQueued whether the caller named in the call is still in the queue
	 * after it (true when none was named)
	 */
	public record Result(int timedOut, int stillWaiting, Optional<PoppedRoom> room, boolean callerQueued) {

	}

}
