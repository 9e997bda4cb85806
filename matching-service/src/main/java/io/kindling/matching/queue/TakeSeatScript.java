package io.kindling.matching.queue;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import io.kindling.redis.LuaScript;
import io.kindling.redis.ScriptCalls;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * {@code scripts/take_seat.lua}: a single joiner takes the open seat of the oldest room
 * of its queue it may sit in, in the queue's slot, so one seat goes to one joiner.
 */
@Component
class TakeSeatScript {

	private final LuaScript<List> script = LuaScript.chain("take_seat", List.class, "forget_past_seats", "take_seat");

	private final StringRedisTemplate redis;

	TakeSeatScript(StringRedisTemplate redis) {
		this.redis = redis;
	}

	/**
	 * @param recentPartners the joiner's, as its claim read them ({@code <id>:<until
	 * ms>,...})
	 */
	Optional<OpenSeat> take(MatchQueue queue, String token, String recentPartners, Instant now) {
		List<?> answer = this.script.run(this.redis,
				List.of(RedisKeys.openSeats(queue.topicId(), queue.size()),
						RedisKeys.seatOffers(queue.topicId(), queue.size())),
				String.valueOf(now.toEpochMilli()), RecentPartners.idOf(token), recentPartners);
		if (answer == null || answer.size() < 3) {
			return Optional.empty();
		}
		String members = String.valueOf(ScriptCalls.text(answer.get(2)));
		return Optional.of(new OpenSeat(String.valueOf(ScriptCalls.text(answer.get(0))),
				Long.parseLong(String.valueOf(ScriptCalls.text(answer.get(1)))), queue,
				members.isEmpty() ? List.of() : List.of(members.split(","))));
	}

}
