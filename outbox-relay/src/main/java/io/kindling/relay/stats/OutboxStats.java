package io.kindling.relay.stats;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.kindling.relay.RelayProperties;
import io.kindling.relay.source.OutboxSource;
import io.kindling.relay.source.OutboxSources;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Backlog gauges per source, refreshed every {@code stats-interval} rather than at each
 * scrape, so a big backlog is counted once per interval: unpublished rows, the age of the
 * oldest one, parked rows.
 */
@Component
class OutboxStats {

	private static final Logger log = LoggerFactory.getLogger(OutboxStats.class);

	private final List<SourceStats> sources;

	OutboxStats(OutboxSources sources, MeterRegistry registry, Clock clock) {
		this.sources = sources.all().stream().map((source) -> new SourceStats(source, registry, clock)).toList();
	}

	@Scheduled(fixedDelayString = "#{" + RelayProperties.BEAN + ".statsInterval()}")
	void refresh() {
		for (SourceStats stats : this.sources) {
			if (stats.source.ready()) {
				try {
					stats.refresh();
				}
				catch (RuntimeException ex) {
					log.debug("{}: stats not refreshed: {}", stats.source.name(), ex.toString());
				}
			}
		}
	}

	private static final class SourceStats {

		final OutboxSource source;

		private final Clock clock;

		private final AtomicLong unpublished = new AtomicLong();

		private final AtomicLong parked = new AtomicLong();

		private final AtomicReference<@Nullable Instant> oldest = new AtomicReference<>();

		private final String backlog;

		private final String parkedCount;

		SourceStats(OutboxSource source, MeterRegistry registry, Clock clock) {
			this.source = source;
			this.clock = clock;
			this.backlog = """
					SELECT COUNT(*) AS unpublished, MIN(created_at) AS oldest FROM %s
					WHERE published_at IS NULL AND parked_at IS NULL
					""".formatted(source.table());
			this.parkedCount = "SELECT COUNT(*) FROM %s WHERE published_at IS NULL AND parked_at IS NOT NULL"
				.formatted(source.table());
			Gauge.builder("kindling.relay.unpublished", this.unpublished, AtomicLong::get)
				.description("Rows waiting to be published (parked rows not included)")
				.tag("source", source.name())
				.register(registry);
			TimeGauge
				.builder("kindling.relay.oldest.unpublished.age", this, TimeUnit.MILLISECONDS, SourceStats::ageMillis)
				.description("Age of the oldest unpublished row")
				.tag("source", source.name())
				.register(registry);
			Gauge.builder("kindling.relay.parked", this.parked, AtomicLong::get)
				.description("Rows parked after max-attempts failures, waiting for an operator")
				.tag("source", source.name())
				.register(registry);
		}

		void refresh() {
			this.source.jdbc().sql(this.backlog).query((rs) -> {
				this.unpublished.set(rs.getLong("unpublished"));
				Timestamp oldestCreated = rs.getTimestamp("oldest");
				this.oldest.set((oldestCreated != null) ? oldestCreated.toInstant() : null);
			});
			this.parked.set(this.source.jdbc().sql(this.parkedCount).query(Long.class).single());
		}

		double ageMillis() {
			Instant oldestCreated = this.oldest.get();
			return (oldestCreated != null)
					? Math.max(0, Duration.between(oldestCreated, this.clock.instant()).toMillis()) : 0;
		}

	}

}
