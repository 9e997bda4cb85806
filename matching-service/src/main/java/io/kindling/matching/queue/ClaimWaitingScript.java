package io.kindling.matching.queue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.kindling.redis.LuaScript;
import io.kindling.redis.ScriptCalls;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * {@code scripts/claim_waiting.lua}: a join's first step, the token's claim. Its queues
 * are marked active for the sweeper in the same round trip (where one connection reaches
 * both keys), before the entry goes in.
 */
@Component
public class ClaimWaitingScript {

	private final LuaScript<List> script = LuaScript.load("claim_waiting", List.class);

	private final StringRedisTemplate redis;

	private final ScriptCalls calls;

	ClaimWaitingScript(StringRedisTemplate redis) {
		this.redis = redis;
		this.calls = new ScriptCalls(redis);
	}

	/**
	 * @return claimed (with the token's recent partners), or the claim the token already
	 * holds
	 */
	public Outcome claim(String token, TokenState.Waiting waiting) {
		List<String> args = new ArrayList<>();
		args.add(String.valueOf(waiting.since().toEpochMilli()));
		waiting.fields().forEach((field, value) -> {
			args.add(field);
			args.add(value);
		});
		ScriptCalls.Call call = new ScriptCalls.Call(List.of(RedisKeys.claim(token), RedisKeys.partners(token)), args);
		List<String> queues = waiting.allQueues().stream().map(MatchQueue::key).toList();
		double joinedAt = waiting.since().toEpochMilli();
		List<?> held;
		if (this.calls.pipelined()) {
			List<Object> results = this.calls.pipeline((pipeline) -> {
				ScriptCalls.evalSha(pipeline, this.script, call);
				for (String queue : queues) {
					pipeline.zadd(RedisKeys.ACTIVE_QUEUES.getBytes(StandardCharsets.UTF_8), joinedAt,
							queue.getBytes(StandardCharsets.UTF_8));
				}
			});
			held = (results.get(0) instanceof List<?> answer) ? answer
					: this.script.run(this.redis, call.keys(), call.argArray());
		}
		else {
			held = this.script.run(this.redis, call.keys(), call.argArray());
			queues.forEach((queue) -> this.redis.opsForZSet().add(RedisKeys.ACTIVE_QUEUES, queue, joinedAt));
		}
		if ("1".equals(ScriptCalls.text(held.get(0)))) {
			return new Outcome(true, waiting, String.valueOf(ScriptCalls.text(held.get(1))));
		}
		Map<String, String> fields = new HashMap<>();
		for (int i = 1; i + 1 < held.size(); i += 2) {
			fields.put(ScriptCalls.text(held.get(i)), ScriptCalls.text(held.get(i + 1)));
		}
		return new Outcome(false, TokenState.parse(fields), "");
	}

	/**
	 * @param claimed true when the token now holds the waiting claim asked for
	 * @param held the claim the token holds now
	 * @param recentPartners when claimed, the token's recent partners as its queue entry
	 * carries them ({@code <id>:<until ms>,...}, empty for none)
	 */
	public record Outcome(boolean claimed, TokenState held, String recentPartners) {

	}

}
