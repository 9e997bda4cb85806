package io.kindling.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * {@code scripts/token_bucket.lua}: a rate limit of {@code perSecond} with bursts of up
 * to {@code burst}, one bucket per key, counted in Redis so that every instance of a
 * service draws from the same one. Time comes from the caller's clock.
 */
public final class TokenBucket {

	private static final LuaScript<Long> SCRIPT = LuaScript.load("token_bucket", Long.class);

	private final ScriptCalls calls;

	private final double perSecond;

	private final int burst;

	/**
	 * @param perSecond tokens the bucket regains each second; more than 0
	 * @param burst tokens it holds at most, at least 1
	 */
	public TokenBucket(StringRedisTemplate redis, double perSecond, int burst) {
		if (!(perSecond > 0) || burst < 1) {
			throw new IllegalArgumentException(
					"a bucket refills (" + perSecond + "/s) and holds a token (" + burst + ")");
		}
		this.calls = new ScriptCalls(redis);
		this.perSecond = perSecond;
		this.burst = burst;
	}

	/** Takes a token from the key's bucket, if it has one. */
	public Taken take(String key, long nowMillis) {
		return takeAll(List.of(key), nowMillis).get(0);
	}

	/**
	 * Takes a token from each key's bucket, in order (a key twice, twice): in one round
	 * trip where one connection reaches every key, one by one on a cluster.
	 * @return whether each was taken
	 */
	public List<Taken> takeAll(List<String> keys, long nowMillis) {
		List<String> args = List.of(String.valueOf(nowMillis), String.valueOf(this.perSecond),
				String.valueOf(this.burst));
		List<ScriptCalls.Call> calls = new ArrayList<>(keys.size());
		for (String key : keys) {
			calls.add(new ScriptCalls.Call(List.of(key), args));
		}
		return this.calls.integers(SCRIPT, calls).stream().map(Taken::after).toList();
	}

	/**
	 * @param taken whether a token was taken
	 * @param retryAfter when not, how long until the bucket has one
	 */
	public record Taken(boolean taken, Duration retryAfter) {

		static final Taken TAKEN = new Taken(true, Duration.ZERO);

		/**
		 * The script's answer: 0 when taken, else the milliseconds until a token comes.
		 */
		static Taken after(long wait) {
			return (wait <= 0) ? TAKEN : new Taken(false, Duration.ofMillis(wait));
		}

		/** Whole seconds, at least one, as {@code Retry-After} wants them. */
		public long retryAfterSeconds() {
			return Math.max(1, (this.retryAfter.toMillis() + 999) / 1000);
		}

	}

}
