package io.kindling.redis.bloom;

/**
 * The size of one bucket: how many items it holds at its design error rate. Bits per item
 * and hash count follow the textbook (and RedisBloom's) formulas, so the bitmap filter
 * and the module filter are built alike.
 *
 * @param capacity items per bucket before a new bucket is started
 * @param errorRate false-positive rate of one bucket at capacity
 */
public record BloomSpec(long capacity, double errorRate) {

	private static final double LN2 = Math.log(2);

	public BloomSpec {
		if (capacity < 1) {
			throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
		}
		if (!(errorRate > 0 && errorRate < 1)) {
			throw new IllegalArgumentException("error rate must be in (0, 1), was " + errorRate);
		}
	}

	/** {@code -ln(p) / ln(2)^2}: 9.59 bits per item at 1 %. */
	public double bitsPerItem() {
		return -Math.log(this.errorRate) / (LN2 * LN2);
	}

	/** Bits of one bucket's bitmap. */
	public long bits() {
		return (long) Math.ceil(this.capacity * bitsPerItem());
	}

	/**
	 * {@code ceil(ln(2) * bits per item)}: 7 hashes at 1 %, as RedisBloom computes it.
	 */
	public int hashes() {
		return (int) Math.ceil(LN2 * bitsPerItem());
	}

	/** Which bucket the item added as the {@code index}-th (0-based) goes into. */
	public long bucketOf(long index) {
		return index / this.capacity;
	}

	/** How many buckets hold {@code count} added items. */
	public long bucketsFor(long count) {
		return (count == 0) ? 0 : (count - 1) / this.capacity + 1;
	}

}
