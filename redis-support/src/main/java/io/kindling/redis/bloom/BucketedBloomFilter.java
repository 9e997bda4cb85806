package io.kindling.redis.bloom;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A chain of Bloom filter buckets per owner. Each bucket is created explicitly with the
 * spec's capacity and error rate; when one is full the next is started and lookups cover
 * every live bucket, so no bucket is ever filled past its design error rate. The filter
 * is live once {@link #open(String)} ran; a missing filter (say, after a flush) answers
 * {@code null}/{@code false} so the caller can rebuild it from its source of truth.
 */
public interface BucketedBloomFilter {

	/** {@code module} or {@code bitmap}. */
	String mode();

	BloomSpec spec();

	/**
	 * Marks the owner's filter live (empty); returns {@code false} when it already was.
	 */
	boolean open(String owner);

	/**
	 * Adds the items in one round trip; returns {@code false} and adds nothing when the
	 * filter is not live.
	 */
	boolean add(String owner, List<String> items);

	/**
	 * For each item whether it may have been added; {@code null} when the filter is not
	 * live.
	 */
	boolean @Nullable [] mightContain(String owner, List<String> items);

	/** Items added so far, or {@code -1} when the filter is not live. */
	long count(String owner);

	/** Removes the filter; the next lookup finds it missing. */
	void drop(String owner);

	/** Bytes Redis uses for the owner's keys ({@code MEMORY USAGE}). */
	long memoryBytes(String owner);

	default long buckets(String owner) {
		long count = count(owner);
		return (count < 0) ? 0 : spec().bucketsFor(count);
	}

}
