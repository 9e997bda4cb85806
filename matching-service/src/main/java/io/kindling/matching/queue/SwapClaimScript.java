package io.kindling.matching.queue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.kindling.redis.LuaScript;
import io.kindling.redis.ScriptCalls;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * {@code scripts/swap_claim.lua}: moves tokens' claims by compare-and-set, each in its
 * own slot, the calls for a room in one round trip where one connection reaches them all.
 */
@Component
public class SwapClaimScript {

	private final LuaScript<Long> script = LuaScript.load("swap_claim", Long.class);

	private final ScriptCalls calls;

	SwapClaimScript(StringRedisTemplate redis) {
		this.calls = new ScriptCalls(redis);
	}

	/** One swap; true when the claim was the one expected. */
	public boolean swap(Swap swap) {
		return swapAll(List.of(swap)).get(0);
	}

	/**
	 * @return for each swap, in order, whether the claim was the one expected (only those
	 * changed)
	 */
	public List<Boolean> swapAll(List<Swap> swaps) {
		List<ScriptCalls.Call> calls = new ArrayList<>(swaps.size());
		for (Swap swap : swaps) {
			List<String> args = new ArrayList<>(List.of(swap.expected().identityField(), swap.expected().identity(),
					String.valueOf(swap.ttl().toMillis())));
			swap.next().fields().forEach((field, value) -> {
				args.add(field);
				args.add(value);
			});
			calls.add(new ScriptCalls.Call(List.of(RedisKeys.claim(swap.token())), args));
		}
		return this.calls.integers(this.script, calls).stream().map((answer) -> answer == 1L).toList();
	}

	/**
	 * @param token whose claim
	 * @param expected the claim it must still hold (compared by its join or room id; idle
	 * = no claim at all)
	 * @param next the claim it gets; idle deletes it
	 * @param ttl how long the new claim lives; zero for no expiry
	 */
	public record Swap(String token, TokenState expected, TokenState next, Duration ttl) {

		public static Swap toIdle(String token, TokenState expected) {
			return new Swap(token, expected, new TokenState.Idle(), Duration.ZERO);
		}

	}

}
