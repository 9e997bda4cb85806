package io.kindling.relay.publish;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import io.kindling.relay.RelayProperties;
import io.kindling.relay.kafka.KafkaPublisher;
import io.kindling.relay.source.OutboxSources;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.stereotype.Component;

/**
 * Starts one {@link SourceRelay} per configured source with the application and stops
 * them, letting batches in flight finish, before the producer and the pools close.
 */
@Component
public class RelayRunner implements SmartLifecycle {

	private final List<SourceRelay> relays;

	private volatile boolean running;

	RelayRunner(OutboxSources sources, KafkaPublisher kafka, MeterRegistry registry, Clock clock,
			RelayProperties properties, TaskScheduler scheduler) {
		if (sources.all().stream().map((source) -> source.name()).distinct().count() != sources.all().size()) {
			throw new IllegalStateException("two sources share a name");
		}
		this.relays = sources.all()
			.stream()
			.map((source) -> new SourceRelay(source,
					new OutboxBatch(source, kafka, new RelayMetrics(registry, source.name()), clock, properties),
					properties, clock, scheduler))
			.toList();
	}

	/** The outbox tables this relay publishes: the only names a wake-up may carry. */
	Set<String> tables() {
		return this.relays.stream().map(SourceRelay::table).collect(Collectors.toUnmodifiableSet());
	}

	/** Rows of the named table were committed: its workers claim now. */
	void wakeUp(String table) {
		this.relays.stream().filter((relay) -> relay.table().equals(table)).forEach(SourceRelay::wakeUp);
	}

	@Override
	public void start() {
		this.relays.forEach(SourceRelay::start);
		this.running = true;
	}

	@Override
	public void stop() {
		this.relays.forEach((relay) -> relay.stop(Duration.ofSeconds(20)));
		this.running = false;
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

}
