package io.kindling.relay.publish;

import java.util.ArrayList;
import java.util.List;

/**
 * Partitions {@code first..last} of the key-hash space, the share of one worker.
 * Partition {@code p} of {@code n} holds the key hashes (CRC32, 0 to 2^32 - 1) from
 * {@code p * 2^32 / n} up to the next partition's start: all rows of one key fall in one
 * partition.
 */
record PartitionBlock(int first, int last, int partitions) {

	static final long HASH_SPACE = 1L << 32;

	/** The blocks of {@code workers} workers: contiguous, together covering all. */
	static List<PartitionBlock> split(int partitions, int workers) {
		int count = Math.min(partitions, workers);
		List<PartitionBlock> blocks = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			blocks.add(new PartitionBlock(i * partitions / count, (i + 1) * partitions / count - 1, partitions));
		}
		return blocks;
	}

	/** How many partitions the block has. */
	int size() {
		return this.last - this.first + 1;
	}

	/**
	 * The block in two halves for one claim: the run of half its partitions from the
	 * {@code start}-th (wrapping round the block), and the rest. A worker claims the
	 * first half, and the second only when the first yields nothing; its next claim
	 * starts where this half ended, so every partition is claimed at least every other
	 * time. A worker of another relay owning the same block thus finds partitions free
	 * while this one is busy: claiming the whole block each time let one busy relay hold
	 * every partition from one claim to the next.
	 * @return two lists of partition numbers; the second is empty for a block of one
	 */
	List<List<Integer>> halves(int start) {
		int size = size();
		int half = half();
		List<Integer> claimFirst = new ArrayList<>(half);
		List<Integer> rest = new ArrayList<>(size - half);
		for (int i = 0; i < size; i++) {
			int partition = this.first + (start + i) % size;
			((i < half) ? claimFirst : rest).add(partition);
		}
		return List.of(claimFirst, rest);
	}

	/**
	 * The length of a claim's first half, rounded up: two claims in a row, each starting
	 * where the other ended, cover the whole block.
	 */
	int half() {
		return (size() + 1) / 2;
	}

	static long lowestHash(int partition, int partitions) {
		return partition * HASH_SPACE / partitions;
	}

	static long highestHash(int partition, int partitions) {
		return (partition + 1) * HASH_SPACE / partitions - 1;
	}

	static int partitionOf(long keyHash, int partitions) {
		return (int) (keyHash * partitions / HASH_SPACE);
	}

	/**
	 * The key-hash ranges of the partitions this relay holds locked, adjacent ones
	 * merged.
	 */
	static List<long[]> hashRanges(List<Integer> lockedPartitions, int partitions) {
		List<Integer> sorted = lockedPartitions.stream().sorted().toList();
		List<long[]> ranges = new ArrayList<>();
		int start = -1;
		int previous = -2;
		for (int partition : sorted) {
			if (partition != previous + 1) {
				if (start >= 0) {
					ranges.add(new long[] { lowestHash(start, partitions), highestHash(previous, partitions) });
				}
				start = partition;
			}
			previous = partition;
		}
		if (start >= 0) {
			ranges.add(new long[] { lowestHash(start, partitions), highestHash(previous, partitions) });
		}
		return ranges;
	}

}
