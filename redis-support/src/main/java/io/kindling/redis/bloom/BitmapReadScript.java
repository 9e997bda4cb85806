package io.kindling.redis.bloom;

import java.util.ArrayList;
import java.util.List;

import io.kindling.redis.LuaScript;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializer;

/**
 * {@code scripts/bloom_bitmap_read.lua}: an owner's buckets in one round trip, as raw
 * bitmaps, for the caller to test bits in.
 */
final class BitmapReadScript {

	@SuppressWarnings("rawtypes")
	private static final LuaScript<List> SCRIPT = LuaScript.load("bloom_bitmap_read", List.class);

	private final StringRedisTemplate redis;

	BitmapReadScript(StringRedisTemplate redis) {
		this.redis = redis;
	}

	/**
	 * @return the bitmap of each bucket, the first bucket first (empty for a bucket with
	 * no bit set yet), or {@code null} when the filter is not live
	 */
	@SuppressWarnings("unchecked")
	@Nullable List<byte[]> read(BloomKeys keys, String owner, BloomSpec spec) {
		// the buckets come back as bytes, not decoded as text
		List<Object> reply = SCRIPT.run(this.redis, RedisSerializer.byteArray(),
				List.of(keys.count(owner), keys.prefix(owner)), String.valueOf(spec.capacity()));
		if (reply == null || reply.isEmpty() || ((Long) reply.get(0)) < 0) {
			return null;
		}
		List<byte[]> buckets = new ArrayList<>(reply.size() - 1);
		for (Object bucket : reply.subList(1, reply.size())) {
			buckets.add((bucket instanceof byte[] bytes) ? bytes : new byte[0]);
		}
		return buckets;
	}

}
