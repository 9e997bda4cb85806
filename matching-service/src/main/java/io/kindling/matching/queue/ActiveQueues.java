package io.kindling.matching.queue;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import io.kindling.redis.LuaScript;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.ZSetOperations;
import org.springframework.stereotype.Component;

/**
 * The queues that may hold someone, in {@code matching:queues} (scored by the last join):
 * the sweeper reads this index, never {@code KEYS} or {@code SCAN}. On a cluster it lives
 * in another slot than the queues, so it cannot change with them atomically: a join marks
 * its queue before its entry goes in, and a queue leaves the index only when a sweep
 * found it empty and nobody joined it lately ({@code scripts/forget_queue.lua}).
 */
@Component
public class ActiveQueues {

	private final LuaScript<Long> forget = LuaScript.load("forget_queue", Long.class);

	private final StringRedisTemplate redis;

	ActiveQueues(StringRedisTemplate redis) {
		this.redis = redis;
	}

	public List<Active> list() {
		Set<ZSetOperations.TypedTuple<String>> queues = this.redis.opsForZSet()
			.rangeWithScores(RedisKeys.ACTIVE_QUEUES, 0, -1);
		if (queues == null) {
			return List.of();
		}
		return queues.stream()
			.filter((queue) -> queue.getValue() != null && queue.getValue().startsWith(RedisKeys.QUEUE_PREFIX))
			.map((queue) -> new Active(MatchQueue.fromKey(Objects.requireNonNull(queue.getValue())),
					Instant.ofEpochMilli((long) Objects.requireNonNullElse(queue.getScore(), 0.0).doubleValue())))
			.toList();
	}

	/** Marks a queue active: people are going back into it. */
	public void touch(MatchQueue queue, Instant now) {
		this.redis.opsForZSet().add(RedisKeys.ACTIVE_QUEUES, queue.key(), now.toEpochMilli());
	}

	/**
	 * Drops a queue found empty from the index, unless it was joined after the cutoff.
	 * @return true when dropped
	 */
	public boolean forgetIfIdleSince(MatchQueue queue, Instant cutoff) {
		return Long.valueOf(1)
			.equals(this.forget.run(this.redis, List.of(RedisKeys.ACTIVE_QUEUES), queue.key(),
					String.valueOf(cutoff.toEpochMilli())));
	}

	/**
	 * @param lastJoined when someone last joined (or went back into) the queue
	 */
	public record Active(MatchQueue queue, Instant lastJoined) {

	}

}
