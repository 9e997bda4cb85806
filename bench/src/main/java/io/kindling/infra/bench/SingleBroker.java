package io.kindling.infra.bench;

import java.nio.file.Path;
import java.util.List;

import io.kindling.infra.kafka.KafkaBroker;
import io.kindling.infra.servers.FreePorts;

/** One KRaft Kafka node on free ports. */
final class SingleBroker implements BenchKafka {

	private final KafkaBroker broker;

	private SingleBroker(KafkaBroker broker) {
		this.broker = broker;
	}

	static SingleBroker start(Path dir, int partitions) {
		KafkaBroker broker = new KafkaBroker(dir, FreePorts.pick(), FreePorts.pick(), partitions);
		try {
			broker.start();
		}
		catch (RuntimeException ex) {
			broker.close();
			throw ex;
		}
		return new SingleBroker(broker);
	}

	@Override
	public String bootstrapServers() {
		return this.broker.bootstrapServers();
	}

	@Override
	public short replicationFactor() {
		return 1;
	}

	@Override
	public List<Long> pids() {
		return List.of(this.broker.pid());
	}

	@Override
	public void close() {
		this.broker.close();
	}

}
