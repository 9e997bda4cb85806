package io.kindling.matching.queue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.kindling.redis.LuaScript;
import io.kindling.redis.ScriptCalls;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * {@code scripts/queue_stats.lua}: how many wait in each queue, since when the oldest
 * waits, and how many joins each ever had, one call per queue in its own slot (one round
 * trip for all where one connection reaches them all).
 */
@Component
public class QueueStatsScript {

	private final LuaScript<List> script = LuaScript.load("queue_stats", List.class);

	private final ScriptCalls calls;

	QueueStatsScript(StringRedisTemplate redis) {
		this.calls = new ScriptCalls(redis);
	}

	public Map<MatchQueue, Reading> read(List<MatchQueue> queues) {
		List<ScriptCalls.Call> calls = new ArrayList<>(queues.size());
		for (MatchQueue queue : queues) {
			calls.add(new ScriptCalls.Call(List.of(queue.key(), queue.statsKey()), List.of()));
		}
		List<List<String>> answers = this.calls.lists(this.script, calls);
		Map<MatchQueue, Reading> readings = new LinkedHashMap<>();
		for (int i = 0; i < queues.size(); i++) {
			List<String> answer = answers.get(i);
			Optional<Instant> oldest = answer.get(1).isEmpty() ? Optional.empty()
					: Optional.of(Instant.ofEpochMilli((long) Double.parseDouble(answer.get(1))));
			readings.put(queues.get(i),
					new Reading(Integer.parseInt(answer.get(0)), oldest, Long.parseLong(answer.get(2))));
		}
		return readings;
	}

	/**
	 * @param waiting entries in the queue
	 * @param oldestSince when the oldest of them began to wait
	 * @param joins every join the queue ever had (a counter, not reset)
	 */
	public record Reading(int waiting, Optional<Instant> oldestSince, long joins) {

	}

}
