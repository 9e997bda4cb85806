package io.kindling.relay.retention;

import java.time.Clock;
import java.time.Instant;
import java.util.List;

import io.kindling.outbox.SqlTime;
import io.kindling.relay.RelayProperties;
import io.kindling.relay.source.OutboxSource;
import io.kindling.relay.source.OutboxSources;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Deletes published rows older than {@code retention}. Each statement deletes at most
 * {@code cleanup.batch-size} rows by primary key in its own short statement, so writers
 * and claims never wait behind it. Several relays may run it at once; they only delete
 * the same rows.
 */
@Component
public class RetentionCleanup {

	private static final Logger log = LoggerFactory.getLogger(RetentionCleanup.class);

	private final OutboxSources sources;

	private final RelayProperties properties;

	private final Clock clock;

	RetentionCleanup(OutboxSources sources, RelayProperties properties, Clock clock) {
		this.sources = sources;
		this.properties = properties;
		this.clock = clock;
	}

	@Scheduled(initialDelayString = "#{" + RelayProperties.BEAN + ".cleanup().interval()}",
			fixedDelayString = "#{" + RelayProperties.BEAN + ".cleanup().interval()}")
	public void run() {
		Instant cutoff = this.clock.instant().minus(this.properties.retention());
		for (OutboxSource source : this.sources.ready()) {
			try {
				int deleted = deletePublishedBefore(source, cutoff);
				if (deleted > 0) {
					log.info("{}: deleted {} rows published before {}", source.name(), deleted, cutoff);
				}
			}
			catch (RuntimeException ex) {
				log.warn("{}: retention cleanup failed: {}", source.name(), ex.toString());
			}
		}
	}

	int deletePublishedBefore(OutboxSource source, Instant cutoff) {
		// Ids first, by a plain read of the published_at index, then deleted by primary
		// key: the delete locks only the rows it removes, never an unpublished row that a
		// claim is about to read.
		String oldest = """
				SELECT id FROM %s
				WHERE published_at < FROM_UNIXTIME(:cutoff)
				ORDER BY published_at
				LIMIT :limit
				""".formatted(source.table());
		String delete = "DELETE FROM %s WHERE id IN (:ids) AND published_at < FROM_UNIXTIME(:cutoff)"
			.formatted(source.table());
		int batchSize = this.properties.cleanup().batchSize();
		int total = 0;
		List<Long> ids;
		do {
			ids = source.jdbc()
				.sql(oldest)
				.param("cutoff", SqlTime.epochSeconds(cutoff))
				.param("limit", batchSize)
				.query(Long.class)
				.list();
			if (!ids.isEmpty()) {
				total += source.jdbc()
					.sql(delete)
					.param("ids", ids)
					.param("cutoff", SqlTime.epochSeconds(cutoff))
					.update();
			}
		}
		while (ids.size() == batchSize);
		return total;
	}

}
