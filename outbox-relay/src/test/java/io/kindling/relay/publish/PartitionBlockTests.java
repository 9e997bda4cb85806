package io.kindling.relay.publish;

import java.util.List;

import io.kindling.outbox.OutboxWriter;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PartitionBlockTests {

	@Test
	void theWorkersBlocksCoverEveryPartitionOnce() {
		assertThat(PartitionBlock.split(16, 4)).containsExactly(new PartitionBlock(0, 3, 16),
				new PartitionBlock(4, 7, 16), new PartitionBlock(8, 11, 16), new PartitionBlock(12, 15, 16));
		assertThat(PartitionBlock.split(10, 3)).containsExactly(new PartitionBlock(0, 2, 10),
				new PartitionBlock(3, 5, 10), new PartitionBlock(6, 9, 10));
		assertThat(PartitionBlock.split(2, 4)).containsExactly(new PartitionBlock(0, 0, 2),
				new PartitionBlock(1, 1, 2));
	}

	@Test
	void thePartitionsHashRangesTileTheWholeCrc32SpaceWithoutGaps() {
		int partitions = 16;
		assertThat(PartitionBlock.lowestHash(0, partitions)).isZero();
		assertThat(PartitionBlock.highestHash(partitions - 1, partitions)).isEqualTo((1L << 32) - 1);
		for (int p = 1; p < partitions; p++) {
			assertThat(PartitionBlock.lowestHash(p, partitions))
				.isEqualTo(PartitionBlock.highestHash(p - 1, partitions) + 1);
		}
	}

	@Test
	void everyKeyFallsInTheRangeOfItsOwnPartitionOnly() {
		for (String key : List.of("12:34", "0:1", "room-7f3a", "outage:31", "outage:0")) {
			long hash = OutboxWriter.keyHash(key);
			int partition = PartitionBlock.partitionOf(hash, 16);
			assertThat(hash).isBetween(PartitionBlock.lowestHash(partition, 16),
					PartitionBlock.highestHash(partition, 16));
		}
	}

	@Test
	void lockedPartitionsBecomeMergedHashRanges() {
		List<long[]> ranges = PartitionBlock.hashRanges(List.of(3, 0, 1), 16);
		assertThat(ranges).hasSize(2);
		assertThat(ranges.get(0)).containsExactly(0L, PartitionBlock.highestHash(1, 16));
		assertThat(ranges.get(1)).containsExactly(PartitionBlock.lowestHash(3, 16), PartitionBlock.highestHash(3, 16));
	}

	@Test
	void aClaimTakesARunOfHalfTheBlockAndTheNextClaimTheOtherHalf() {
		PartitionBlock block = new PartitionBlock(8, 15, 16);
		assertThat(block.half()).isEqualTo(4);
		assertThat(block.halves(0)).containsExactly(List.of(8, 9, 10, 11), List.of(12, 13, 14, 15));
		// wrapping round the block
		assertThat(block.halves(6)).containsExactly(List.of(14, 15, 8, 9), List.of(10, 11, 12, 13));
		// where the next claim starts (start + half) the first half is the rest of this
		// one
		assertThat(block.halves(6 + block.half()).get(0)).containsExactlyElementsOf(block.halves(6).get(1));
		PartitionBlock odd = new PartitionBlock(0, 2, 3);
		assertThat(odd.half()).isEqualTo(2);
		assertThat(odd.halves(2)).containsExactly(List.of(2, 0), List.of(1));
		assertThat(odd.halves((2 + odd.half()) % 3).get(0)).contains(1);
		assertThat(new PartitionBlock(3, 3, 16).halves(0)).containsExactly(List.of(3), List.of());
	}

}
