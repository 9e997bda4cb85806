package io.kindling.matching.queue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.kindling.matching.MatchingProperties;
import io.kindling.redis.LuaScript;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * {@code scripts/form_room.lua}: drops timed-out entries and pops at most one room; and
 * the join, {@code scripts/enqueue.lua} followed by the same forming in one script.
 */
@Component
public class FormRoomScript {

	/**
	 * Bounds one call's work when many entries time out at once (e.g. after an outage).
	 */
	private static final int MOST_DROPPED_PER_CALL = 500;

	private final LuaScript<List> form = LuaScript.load("form_room", List.class);

	private final LuaScript<List> join = LuaScript.chain("join", List.class, "enqueue", "form_room");

	private final StringRedisTemplate redis;

	private final MatchingProperties properties;

	FormRoomScript(StringRedisTemplate redis, MatchingProperties properties) {
		this.redis = redis;
		this.properties = properties;
	}

	public Result form(MatchQueue queue, String roomId, Instant now) {
		return result(
				this.form.run(this.redis, List.of(queue.key(), RedisKeys.ACTIVE_QUEUES), args(queue, roomId, now)),
				queue, roomId, now);
	}

	/**
	 * Puts the token in the queue and tries to form a room, in one atomic call: nobody
	 * else can pop the token between the two. The room formed, if any, holds the oldest
	 * in the queue, which may or may not include the token.
	 * @return empty when the token is already waiting somewhere or in a room
	 */
	public Optional<Result> join(String token, MatchQueue queue, String roomId, Instant now) {
		List<String> args = new ArrayList<>(List.of(args(queue, roomId, now)));
		args.add(token);
		List<?> result = this.join.run(this.redis,
				List.of(queue.key(), RedisKeys.ACTIVE_QUEUES, RedisKeys.waiting(token), RedisKeys.room(token)),
				args.toArray(String[]::new));
		if (number(result.get(0)) < 0) {
			return Optional.empty();
		}
		return Optional.of(result(result, queue, roomId, now));
	}

	private String[] args(MatchQueue queue, String roomId, Instant now) {
		long nowMillis = now.toEpochMilli();
		return new String[] { RedisKeys.PREFIX, String.valueOf(queue.size()), String.valueOf(queue.topicId()),
				String.valueOf(nowMillis), String.valueOf(nowMillis - this.properties.waitTimeout().toMillis()),
				String.valueOf(nowMillis - this.properties.fallbackAfter().toMillis()), roomId,
				String.valueOf(this.properties.roomPendingTtl().toMillis()), String.valueOf(MOST_DROPPED_PER_CALL) };
	}

	private static Result result(List<?> result, MatchQueue queue, String roomId, Instant now) {
		int timedOut = number(result.get(0));
		int roomSize = number(result.get(1));
		int stillWaiting = number(result.get(2));
		if (roomSize == 0) {
			return new Result(timedOut, stillWaiting, Optional.empty());
		}
		boolean fallback = number(result.get(3)) == 1;
		List<PoppedRoom.Participant> participants = new ArrayList<>(roomSize);
		for (int i = 4; i + 1 < result.size(); i += 2) {
			participants.add(new PoppedRoom.Participant(String.valueOf(result.get(i)),
					Instant.ofEpochMilli((long) Double.parseDouble(String.valueOf(result.get(i + 1))))));
		}
		return new Result(timedOut, stillWaiting,
				Optional.of(new PoppedRoom(roomId, queue, fallback, now, List.copyOf(participants))));
	}

	private static int number(Object value) {
		return Integer.parseInt(String.valueOf(value));
	}

	/**
	 * @param timedOut how many were dropped for waiting past the timeout
	 * @param stillWaiting how many are left in the queue
	 * @param room the room popped, if one formed
	 */
	public record Result(int timedOut, int stillWaiting, Optional<PoppedRoom> room) {

	}

}
