package io.kindling.outbox;

import java.util.Map;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationVersion;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A service's migrations that made or changed its outbox table before
 * {@link OutboxSchema} kept the table's schema, and that were cut down to the rest when
 * it took over. A database that ran them holds their former checksums in its history, on
 * which Flyway would refuse to start; {@link #adopt} records their present checksums
 * instead, for these versions and these former checksums only, so an edit to any other
 * applied migration still stops the service. A service declares its own as a bean.
 *
 * @param formerChecksums the checksum each had before, by version ({@code "1"})
 */
public record MovedOutboxMigrations(Map<String, Integer> formerChecksums) {

	public MovedOutboxMigrations {
		formerChecksums = Map.copyOf(formerChecksums);
	}

	/**
	 * Rewrites the history rows of these migrations that still hold the former text's.
	 */
	public void adopt(Flyway flyway) {
		String history = "`" + flyway.getConfiguration().getTable() + "`";
		String schema = flyway.getConfiguration().getDefaultSchema();
		if (schema != null) {
			history = "`" + schema + "`." + history;
		}
		JdbcClient jdbc = JdbcClient.create(flyway.getConfiguration().getDataSource());
		for (MigrationInfo migration : flyway.info().applied()) {
			MigrationVersion version = migration.getVersion();
			Integer former = (version != null) ? this.formerChecksums.get(version.getVersion()) : null;
			Integer present = migration.getResolvedChecksum();
			if (former != null && former.equals(migration.getAppliedChecksum()) && present != null
					&& !present.equals(former)) {
				jdbc.sql("UPDATE " + history
						+ " SET checksum = :present WHERE version = :version AND checksum = :former")
					.param("present", present)
					.param("version", version.getVersion())
					.param("former", former)
					.update();
			}
		}
	}

}
