package io.kindling.infra.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import io.kindling.infra.servers.FreePorts;
import io.kindling.infra.servers.MariaDbServer;
import org.jspecify.annotations.Nullable;

/**
 * The parts of a stack a bench asks for ({@link BenchStack#of}); {@link #start()} starts
 * them.
 */
public final class BenchStackBuilder {

	private final String bench;

	private final BenchOptions options;

	private BenchRedis.@Nullable Mode redis;

	private final List<String> databases = new ArrayList<>();

	private int kafkaPartitions;

	BenchStackBuilder(String bench, BenchOptions options) {
		this.bench = bench;
		this.options = options;
	}

	/** Redis in the mode the command line chose ({@code --redis}). */
	public BenchStackBuilder redis() {
		return redis(this.options.redis());
	}

	/**
	 * Redis in this mode, whatever the command line chose: for a bench that measures one
	 * mode beside another.
	 */
	public BenchStackBuilder redis(BenchRedis.Mode mode) {
		this.redis = mode;
		return this;
	}

	/** MariaDB with these databases, each granted to the services' user. */
	public BenchStackBuilder mariaDb(String... databases) {
		this.databases.addAll(List.of(databases));
		return this;
	}

	/**
	 * Kafka, whose topics get {@code partitions} partitions unless created otherwise.
	 */
	public BenchStackBuilder kafka(int partitions) {
		this.kafkaPartitions = partitions;
		return this;
	}

	public BenchStack start() throws IOException {
		BenchStack stack = new BenchStack(this.bench, this.options);
		try {
			if (this.redis != null) {
				stack.redis = this.redis.start(stack.work.resolve("redis"));
			}
			if (!this.databases.isEmpty()) {
				MariaDbServer mariaDb = new MariaDbServer(stack.work.resolve("mariadb"), FreePorts.pick());
				stack.mariaDb = mariaDb;
				mariaDb.start();
				this.databases.forEach(mariaDb::createDatabase);
			}
			if (this.kafkaPartitions > 0) {
				stack.kafka = this.options.kafka().start(stack.work.resolve("kafka"), this.kafkaPartitions);
			}
			return stack;
		}
		catch (RuntimeException ex) {
			stack.close();
			throw ex;
		}
	}

}
