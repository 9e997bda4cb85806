package io.kindling.redis.bloom;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A bucketed Bloom filter on plain Redis bitmaps, for a Redis without RedisBloom. Bits
 * per item and hash count are RedisBloom's, so the error rate is the same. Adding is one
 * Lua script (count and bits change together); a lookup reads the owner's buckets in one
 * round trip and tests the bits here, so a batch of thousands of candidates costs one
 * small read instead of thousands of {@code GETBIT}s.
 */
public final class BitmapBloomFilter extends BloomKeysOnRedis {

	/** Keeps one script call's argument list small when many items are added at once. */
	private static final int ADD_CHUNK = 1_000;

	private final BitmapAddScript addScript;

	private final BitmapReadScript readScript;

	public BitmapBloomFilter(StringRedisTemplate redis, BloomKeys keys, BloomSpec spec) {
		super(redis, keys, spec);
		this.addScript = new BitmapAddScript(redis);
		this.readScript = new BitmapReadScript(redis);
	}

	@Override
	public String mode() {
		return "bitmap";
	}

	@Override
	public boolean add(String owner, List<String> items) {
		for (int from = 0; from < items.size(); from += ADD_CHUNK) {
			List<long[]> positions = new ArrayList<>(Math.min(ADD_CHUNK, items.size() - from));
			for (String item : items.subList(from, Math.min(items.size(), from + ADD_CHUNK))) {
				positions.add(BloomHashing.positions(item, this.spec.bits(), this.spec.hashes()));
			}
			if (!this.addScript.add(this.keys, owner, this.spec, positions)) {
				return false;
			}
		}
		return true;
	}

	@Override
	public boolean @Nullable [] mightContain(String owner, List<String> items) {
		List<byte[]> buckets = this.readScript.read(this.keys, owner, this.spec);
		if (buckets == null) {
			return null;
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

}
