package io.kindling.redis.bloom;

import java.util.List;

import io.kindling.redis.LuaScript;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * {@code scripts/bloom_bitmap_add.lua}: sets the items' bits and raises the count in one
 * step, starting the next bucket when one is full.
 */
final class BitmapAddScript {

	private static final LuaScript<Long> SCRIPT = LuaScript.load("bloom_bitmap_add", Long.class);

	private final StringRedisTemplate redis;

	BitmapAddScript(StringRedisTemplate redis) {
		this.redis = redis;
	}

	/**
	 * @param positions each item's bit positions, item after item
	 * @return whether the filter is live (else nothing was added)
	 */
	boolean add(BloomKeys keys, String owner, BloomSpec spec, List<long[]> positions) {
		int k = spec.hashes();
		String[] args = new String[3 + positions.size() * k];
		args[0] = String.valueOf(spec.capacity());
		args[1] = String.valueOf(k);
		args[2] = String.valueOf(spec.bits());
		int next = 3;
		for (long[] item : positions) {
			for (long position : item) {
				args[next++] = String.valueOf(position);
			}
		}
		Long count = SCRIPT.run(this.redis, List.of(keys.count(owner), keys.prefix(owner)), args);
		return count != null && count >= 0;
	}

}
