package io.kindling.matching.queue;

import java.util.List;
import java.util.Set;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * The queues that may hold someone, kept by the scripts in {@code matching:queues}: the
 * sweeper reads this set, never {@code KEYS} or {@code SCAN}.
 */
@Component
public class ActiveQueues {

	private final StringRedisTemplate redis;

	ActiveQueues(StringRedisTemplate redis) {
		this.redis = redis;
	}

	public List<MatchQueue> list() {
		Set<String> keys = this.redis.opsForSet().members(RedisKeys.ACTIVE_QUEUES);
		if (keys == null) {
			return List.of();
		}
		return keys.stream().filter((key) -> key.startsWith(RedisKeys.QUEUE_PREFIX)).map(MatchQueue::fromKey).toList();
	}

}
