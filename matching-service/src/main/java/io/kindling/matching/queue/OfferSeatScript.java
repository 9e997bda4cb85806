package io.kindling.matching.queue;

import java.time.Instant;
import java.util.List;

import io.kindling.redis.LuaScript;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * {@code scripts/offer_seat.lua}: a leave reopens its seat in a room of three for the
 * next single joiner of the room's queue, once, or takes it back when the room emptied;
 * in the queue's slot.
 */
@Component
class OfferSeatScript {

	private final LuaScript<Long> script = LuaScript.chain("offer_seat", Long.class, "forget_past_seats", "offer_seat");

	private final StringRedisTemplate redis;

	OfferSeatScript(StringRedisTemplate redis) {
		this.redis = redis;
	}

	/**
	 * @return whether this call opened the seat (false: the room had one offered already)
	 */
	boolean offer(OpenSeat seat, Instant until, Instant now) {
		return run("open", seat, String.join(",", seat.members()), until, now);
	}

	/**
	 * @return whether this call took an open seat back
	 */
	boolean withdraw(OpenSeat seat, Instant now) {
		return run("withdraw", seat, "", now, now);
	}

	private boolean run(String mode, OpenSeat seat, String members, Instant until, Instant now) {
		MatchQueue queue = seat.queue();
		Long answer = this.script.run(this.redis,
				List.of(RedisKeys.openSeats(queue.topicId(), queue.size()),
						RedisKeys.seatOffers(queue.topicId(), queue.size())),
				String.valueOf(now.toEpochMilli()), mode, seat.roomId(), String.valueOf(until.toEpochMilli()),
				String.valueOf(seat.conversationId()), members);
		return answer != null && answer == 1L;
	}

}
