package io.kindling.infra.bench;

import java.nio.file.Path;
import java.util.List;

/**
 * The Kafka a bench stack runs, in one of the modes {@code --kafka} chooses: where
 * clients bootstrap, how many copies a topic keeps, and which processes it runs (for CPU
 * accounting).
 */
public interface BenchKafka extends AutoCloseable {

	String bootstrapServers();

	/** The replication factor a bench's topics get. */
	short replicationFactor();

	/** Every broker process of this mode. */
	List<Long> pids();

	@Override
	void close();

	/** How to run Kafka; another mode is one more constant and one more class. */
	enum Mode {

		/** One KRaft node, broker and controller in one process. */
		SINGLE {
			@Override
			BenchKafka start(Path dir, int partitions) {
				return SingleBroker.start(dir, partitions);
			}
		};

		abstract BenchKafka start(Path dir, int partitions);

	}

}
