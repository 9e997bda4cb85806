package io.kindling.outbox;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The age of the oldest row of the service's outbox that no relay has published yet, as
 * the gauge {@code kindling.outbox.oldest.unpublished.age} (tag {@code table}): measured
 * by the writer, so it keeps growing, and the alert on it fires, while every relay is
 * down. Parked rows are left out (the relay counts those). Read at a scrape at most once
 * per {@code backlog-interval}, so a big backlog is counted once per interval however
 * often it is scraped; while the database is away the gauge has no value.
 */
final class OutboxBacklog implements MeterBinder {

	private static final Logger log = LoggerFactory.getLogger(OutboxBacklog.class);

	private final JdbcClient jdbc;

	private final String table;

	private final Clock clock;

	private final Duration interval;

	private final String oldest;

	private @Nullable Reading last;

	OutboxBacklog(JdbcClient jdbc, String table, Clock clock, Duration interval) {
		this.jdbc = jdbc;
		this.table = TableName.require(table);
		this.clock = clock;
		this.interval = interval;
		this.oldest = "SELECT MIN(created_at) FROM %s WHERE published_at IS NULL AND parked_at IS NULL"
			.formatted(this.table);
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		TimeGauge
			.builder("kindling.outbox.oldest.unpublished.age", this, TimeUnit.MILLISECONDS, OutboxBacklog::ageMillis)
			.description("Age of the oldest outbox row no relay has published (parked rows not included); 0 when none")
			.tag("table", this.table)
			// the gauge is all this is for: nothing else need keep it (Micrometer's own
			// reference is weak, and the gauge of a collected one reads NaN)
			.strongReference(true)
			.register(registry);
	}

	/** The age now; NaN while the database does not answer. */
	synchronized double ageMillis() {
		Instant now = this.clock.instant();
		if (this.last == null || !now.isBefore(this.last.readAt().plus(this.interval))) {
			try {
				this.last = new Reading(now, read());
			}
			catch (RuntimeException ex) {
				log.debug("Could not read the backlog of {}: {}", this.table, ex.toString());
				this.last = null;
				return Double.NaN;
			}
		}
		return this.last.oldest()
			.map((created) -> (double) Math.max(0, Duration.between(created, now).toMillis()))
			.orElse(0.0);
	}

	private Optional<Instant> read() {
		// MIN of no rows is one row holding NULL
		return this.jdbc.sql(this.oldest)
			.query((rs, row) -> Optional.ofNullable(rs.getTimestamp(1)).map(Timestamp::toInstant))
			.single();
	}

	private record Reading(Instant readAt, Optional<Instant> oldest) {

	}

}
