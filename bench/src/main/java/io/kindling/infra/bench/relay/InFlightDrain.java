package io.kindling.infra.bench.relay;

import java.nio.file.Files;
import java.time.Duration;
import java.util.List;

import io.kindling.infra.bench.BenchStack;
import io.kindling.infra.bench.CpuTime;
import io.kindling.infra.servers.ServiceJar;

/**
 * A drain by an outbox-relay jar whose producers {@link InFlightProducers} makes: the
 * relay as it was, beside the relay as it is in the same run. It has a table and a topic
 * of its own, written just before it starts, as the relay's own drain has, and runs
 * alone: it is stopped once the topic holds the backlog.
 *
 * @param label how the table names it
 * @param table its outbox table
 * @param topic its topic
 * @param inFlight {@code max.in.flight.requests.per.connection} of its producers
 * @param oneProducer whether every worker shares one producer, as before the relay had
 * one per worker
 */
record InFlightDrain(String label, String table, String topic, int inFlight, boolean oneProducer) {

	/** What a drain measured. */
	record Result(InFlightDrain drain, Topics.Drain rate, CpuTime cpu) {

	}

	Result run(BenchStack stack, OutboxRows rows, int backlog) throws Exception {
		System.out.printf("the relay %s...%n", this.label);
		rows.insertBacklog(this.table, backlog);
		ServiceJar relay = stack.startService("outbox-relay", InFlightProducers.classesIn(stack.work()),
				InFlightProducers.jvmOptions(this.inFlight, this.oneProducer), "1g", this.table + "-relay.log",
				List.of("--spring.main.sources=" + InFlightProducers.class.getName(), "--kindling.relay.wake-up-port=0",
						"--kindling.relay.sources[0].name=matches",
						"--kindling.relay.sources[0].url=" + stack.jdbcUrl(OutboxRows.DATABASE),
						"--kindling.relay.sources[0].table=" + this.table,
						"--kindling.relay.sources[0].topic=" + this.topic));
		try {
			CpuTime before = stack.cpu();
			Topics.Drain drain = Topics.awaitPublished(stack.kafka().bootstrapServers(), this.topic, backlog,
					Duration.ofSeconds(180));
			CpuTime cpu = stack.cpu().minus(before);
			String made = InFlightProducers.MADE + this.inFlight;
			if (!Files.readString(relay.log()).contains(made)) {
				throw new IllegalStateException("the relay did not make its producers with " + InFlightProducers.class
						+ "; see " + relay.log());
			}
			return new Result(this, drain, cpu);
		}
		finally {
			relay.stop();
		}
	}

}
