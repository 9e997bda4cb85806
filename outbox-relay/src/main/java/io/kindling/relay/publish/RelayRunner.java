package io.kindling.relay.publish;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.kindling.relay.RelayProperties;
import io.kindling.relay.kafka.KafkaPublisher;
import io.kindling.relay.source.OutboxSources;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Starts one {@link SourceRelay} per configured source with the application and stops
 * them, letting batches in flight finish, before the producer and the pools close.
 */
@Component
public class RelayRunner implements SmartLifecycle {

	private final Map<String, SourceRelay> relays;

	private volatile boolean running;

	RelayRunner(OutboxSources sources, KafkaPublisher kafka, MeterRegistry registry, Clock clock,
			RelayProperties properties) {
		this.relays = sources.all()
			.stream()
			.collect(Collectors.toMap((source) -> source.name(),
					(source) -> new SourceRelay(source, new OutboxBatch(source, kafka,
							new RelayMetrics(registry, source.name()), clock, properties), properties, clock),
					(a, b) -> {
						throw new IllegalStateException("two sources share a name");
					}, java.util.LinkedHashMap::new));
	}

	/** Rows of the named table were committed: its probe runs now. */
	void wakeUp(String table) {
		this.relays.values().stream().filter((relay) -> relay.table().equals(table)).forEach(SourceRelay::probeNow);
	}

	@Override
	public void start() {
		this.relays.values().forEach(SourceRelay::start);
		this.running = true;
	}

	@Override
	public void stop() {
		this.relays.values().forEach((relay) -> relay.stop(Duration.ofSeconds(20)));
		this.running = false;
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	List<String> sourceNames() {
		return List.copyOf(this.relays.keySet());
	}

}
