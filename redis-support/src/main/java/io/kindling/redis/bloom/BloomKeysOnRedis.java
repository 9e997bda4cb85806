package io.kindling.redis.bloom;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * What both kinds of filter do alike with an owner's keys: the count key that marks the
 * filter live and numbers its items, and the buckets it implies. The kinds differ only in
 * how they add and look up.
 */
abstract class BloomKeysOnRedis implements BucketedBloomFilter {

	final StringRedisTemplate redis;

	final BloomKeys keys;

	final BloomSpec spec;

	BloomKeysOnRedis(StringRedisTemplate redis, BloomKeys keys, BloomSpec spec) {
		this.redis = redis;
		this.keys = keys;
		this.spec = spec;
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
	public long count(String owner) {
		String count = this.redis.opsForValue().get(this.keys.count(owner));
		return (count != null) ? Long.parseLong(count) : -1;
	}

	@Override
	public void drop(String owner) {
		this.redis.delete(keysOf(owner));
	}

	@Override
	public long memoryBytes(String owner) {
		List<String> names = keysOf(owner);
		return this.redis.execute((RedisCallback<Long>) (connection) -> {
			long total = 0;
			for (String name : names) {
				total += memoryUsage(connection, name);
			}
			return total;
		});
	}

	/** The count key and every bucket the count implies. */
	private List<String> keysOf(String owner) {
		long buckets = buckets(owner);
		List<String> names = new ArrayList<>();
		names.add(this.keys.count(owner));
		for (long b = 0; b < buckets; b++) {
			names.add(this.keys.bucket(owner, b));
		}
		return names;
	}

	private static long memoryUsage(RedisConnection connection, String key) {
		Object usage = connection.execute("MEMORY", "USAGE".getBytes(StandardCharsets.UTF_8),
				key.getBytes(StandardCharsets.UTF_8));
		return (usage instanceof Long bytes) ? bytes : 0;
	}

}
