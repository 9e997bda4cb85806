package io.kindling.redis.bloom;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.kindling.redis.LuaScript;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializer;

/**
 * A bucketed Bloom filter on plain Redis bitmaps, for a Redis without RedisBloom. Bits
 * per item and hash count are RedisBloom's, so the error rate is the same. Adding is one
 * Lua script (count and bits change together); a lookup reads the owner's buckets in one
 * round trip and tests the bits here, so a batch of thousands of candidates costs one
 * small read instead of thousands of {@code GETBIT}s.
 */
public final class BitmapBloomFilter implements BucketedBloomFilter {

	/** Keeps one script call's argument list small when many items are added at once. */
	private static final int ADD_CHUNK = 1_000;

	private static final LuaScript<Long> ADD = LuaScript.load("bloom_bitmap_add", Long.class);

	@SuppressWarnings("rawtypes")
	private static final LuaScript<List> READ = LuaScript.load("bloom_bitmap_read", List.class);

	private final StringRedisTemplate redis;

	private final BloomKeys keys;

	private final BloomSpec spec;

	public BitmapBloomFilter(StringRedisTemplate redis, BloomKeys keys, BloomSpec spec) {
		this.redis = redis;
		this.keys = keys;
		this.spec = spec;
	}

	@Override
	public String mode() {
		return "bitmap";
	}

	@Override
	public BloomSpec spec() {
		return this.spec;
	}

	@Override
	public boolean open(String owner) {
		return Boolean.TRUE.equals(this.redis.opsForValue().setIfAbsent(this.keys.count(owner), "0"));
	}

	@Override
	public boolean add(String owner, List<String> items) {
		for (int from = 0; from < items.size(); from += ADD_CHUNK) {
			List<String> chunk = items.subList(from, Math.min(items.size(), from + ADD_CHUNK));
			int k = this.spec.hashes();
			String[] args = new String[3 + chunk.size() * k];
			args[0] = String.valueOf(this.spec.capacity());
			args[1] = String.valueOf(k);
			args[2] = String.valueOf(this.spec.bits());
			int next = 3;
			for (String item : chunk) {
				for (long position : BloomHashing.positions(item, this.spec.bits(), k)) {
					args[next++] = String.valueOf(position);
				}
			}
			Long count = ADD.run(this.redis, List.of(this.keys.count(owner), this.keys.prefix(owner)), args);
			if (count == null || count < 0) {
				return false;
			}
		}
		return true;
	}

	@Override
	@SuppressWarnings({ "unchecked", "rawtypes" })
	public boolean @Nullable [] mightContain(String owner, List<String> items) {
		List<Object> reply = (List<Object>) this.redis.execute(READ.script(), RedisSerializer.string(),
				(RedisSerializer) RedisSerializer.byteArray(), List.of(this.keys.count(owner), this.keys.prefix(owner)),
				String.valueOf(this.spec.capacity()));
		if (reply == null || reply.isEmpty() || ((Long) reply.get(0)) < 0) {
			return null;
		}
		List<byte[]> buckets = new ArrayList<>(reply.size() - 1);
		for (Object bucket : reply.subList(1, reply.size())) {
			buckets.add((bucket instanceof byte[] bytes) ? bytes : new byte[0]);
		}
		boolean[] found = new boolean[items.size()];
		if (buckets.isEmpty()) {
			return found;
		}
		long bits = this.spec.bits();
		int k = this.spec.hashes();
		for (int i = 0; i < found.length; i++) {
			long[] positions = BloomHashing.positions(items.get(i), bits, k);
			for (byte[] bucket : buckets) {
				if (allSet(bucket, positions)) {
					found[i] = true;
					break;
				}
			}
		}
		return found;
	}

	/** Redis numbers bits from the most significant bit of the first byte. */
	private static boolean allSet(byte[] bitmap, long[] positions) {
		for (long position : positions) {
			int index = (int) (position >>> 3);
			if (index >= bitmap.length || (bitmap[index] & (0x80 >>> (position & 7))) == 0) {
				return false;
			}
		}
		return true;
	}

	@Override
	public long count(String owner) {
		String count = this.redis.opsForValue().get(this.keys.count(owner));
		return (count != null) ? Long.parseLong(count) : -1;
	}

	@Override
	public void drop(String owner) {
		long buckets = buckets(owner);
		List<String> names = new ArrayList<>();
		names.add(this.keys.count(owner));
		for (long b = 0; b < buckets; b++) {
			names.add(this.keys.bucket(owner, b));
		}
		this.redis.delete(names);
	}

	@Override
	public long memoryBytes(String owner) {
		long buckets = buckets(owner);
		List<String> names = new ArrayList<>();
		names.add(this.keys.count(owner));
		for (long b = 0; b < buckets; b++) {
			names.add(this.keys.bucket(owner, b));
		}
		return this.redis.execute((RedisCallback<Long>) (connection) -> {
			long total = 0;
			for (String name : names) {
				total += memoryUsage(connection, name);
			}
			return total;
		});
	}

	static long memoryUsage(RedisConnection connection, String key) {
		Object usage = connection.execute("MEMORY", "USAGE".getBytes(StandardCharsets.UTF_8),
				key.getBytes(StandardCharsets.UTF_8));
		return (usage instanceof Long bytes) ? bytes : 0;
	}

}
