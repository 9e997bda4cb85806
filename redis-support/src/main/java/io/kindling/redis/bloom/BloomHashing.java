package io.kindling.redis.bloom;

import java.nio.charset.StandardCharsets;

/**
 * The k bit positions of an item in an m-bit bucket: enhanced double hashing
 * (Kirsch–Mitzenmacher) over a well-mixed 64-bit hash, so k hashes cost one.
 */
final class BloomHashing {

	private BloomHashing() {
	}

	static long[] positions(String item, long bits, int hashes) {
		long hash = fmix64(fnv1a64(item.getBytes(StandardCharsets.UTF_8)));
		long h1 = hash;
		long h2 = fmix64(hash ^ 0x9E3779B97F4A7C15L);
		long[] positions = new long[hashes];
		for (int i = 0; i < hashes; i++) {
			positions[i] = Long.remainderUnsigned(h1, bits);
			h1 += h2;
			h2 += i;
		}
		return positions;
	}

	private static long fnv1a64(byte[] bytes) {
		long hash = 0xcbf29ce484222325L;
		for (byte b : bytes) {
			hash ^= (b & 0xff);
			hash *= 0x100000001b3L;
		}
		return hash;
	}

	/** MurmurHash3's finaliser: every input bit affects every output bit. */
	private static long fmix64(long k) {
		k ^= k >>> 33;
		k *= 0xff51afd7ed558ccdL;
		k ^= k >>> 33;
		k *= 0xc4ceb9fe1a85ec53L;
		k ^= k >>> 33;
		return k;
	}

}
