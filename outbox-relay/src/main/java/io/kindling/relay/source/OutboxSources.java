package io.kindling.relay.source;

import java.util.List;

import io.kindling.relay.RelayProperties;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.stereotype.Component;

/**
 * The configured sources, opened once. Also the {@code outboxSources} health indicator:
 * up when every source's database answers, with each source's state.
 */
@Component("outboxSources")
public class OutboxSources extends AbstractHealthIndicator implements DisposableBean {

	private final List<OutboxSource> sources;

	public OutboxSources(RelayProperties properties) {
		// Each worker holds one connection for its batch; the rest serve probe, stats,
		// cleanup and the API.
		int poolSize = properties.workersPerSource() + 4;
		this.sources = properties.sources()
			.stream()
			.map((source) -> new OutboxSource(source, properties.partitions(), poolSize))
			.toList();
	}

	public List<OutboxSource> all() {
		return this.sources;
	}

	public List<OutboxSource> ready() {
		return this.sources.stream().filter(OutboxSource::ready).toList();
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		boolean allReachable = true;
		for (OutboxSource source : this.sources) {
			boolean reachable = source.reachable();
			allReachable &= reachable;
			source.ready();
			builder.withDetail(source.name(), source.table() + " -> " + source.topic() + ": " + source.state());
		}
		if (allReachable) {
			builder.up();
		}
		else {
			builder.down();
		}
	}

	@Override
	public void destroy() {
		this.sources.forEach(OutboxSource::close);
	}

}
