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

}
