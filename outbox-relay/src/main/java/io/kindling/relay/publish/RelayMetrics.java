package io.kindling.relay.publish;

import java.time.Duration;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/** The publishing meters of one source. */
final class RelayMetrics {

	private final Counter published;

	private final Counter transientFailures;

	private final Counter rejected;

	private final Counter parked;

	private final Timer latency;

	private final Counter claims;

	RelayMetrics(MeterRegistry registry, String source) {
		this.published = Counter.builder("kindling.relay.published")
			.description("Rows acked by Kafka and marked published")
			.tag("source", source)
			.register(registry);
		this.transientFailures = Counter.builder("kindling.relay.send.failures")
			.description("Records Kafka did not ack")
			.tag("source", source)
			.tag("kind", "unavailable")
			.register(registry);
		this.rejected = Counter.builder("kindling.relay.send.failures")
			.description("Records Kafka did not ack")
			.tag("source", source)
			.tag("kind", "rejected")
			.register(registry);
		this.parked = Counter.builder("kindling.relay.parked.rows")
			.description("Rows parked after max-attempts rejections")
			.tag("source", source)
			.register(registry);
		this.latency = Timer.builder("kindling.relay.latency")
			.description("From the row's creation in the writer's transaction to Kafka's ack")
			.tag("source", source)
			.publishPercentileHistogram()
			.minimumExpectedValue(Duration.ofMillis(1))
			.maximumExpectedValue(Duration.ofMinutes(5))
			.register(registry);
		this.claims = Counter.builder("kindling.relay.claims")
			.description("Claim transactions started, whether they found rows or not")
			.tag("source", source)
			.register(registry);
	}

	void claim() {
		this.claims.increment();
	}

	void published(int rows) {
		this.published.increment(rows);
	}

	void unavailable(int records) {
		this.transientFailures.increment(records);
	}

	void rejected() {
		this.rejected.increment();
	}

	void parked() {
		this.parked.increment();
	}

	void latency(Duration createdToAck) {
		this.latency.record(createdToAck.isNegative() ? Duration.ZERO : createdToAck);
	}

}
