package io.kindling.outbox;

import java.util.Map;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Makes and migrates one outbox table with the migrations in {@code classpath:db/outbox},
 * the table's name their {@code ${outbox_table}}. Each table keeps its own history
 * ({@code flyway_
 *
<table>
 * _history}) beside its service's, so the services number their migrations as they like
 * and the outbox's are numbered once for all. A table that its service's own migrations
 * built, before this module kept the schema, has version 1's shape: its history starts
 * there.
 */
public final class OutboxSchema {

	static final String LOCATION = "classpath:db/outbox";

	private OutboxSchema() {
	}

	/** Brings the table to the current shape, making it if the database has none. */
	public static void migrate(DataSource dataSource, String table) {
		String history = historyTable(TableName.require(table));
		JdbcClient jdbc = JdbcClient.create(dataSource);
		boolean builtBefore = !exists(jdbc, history) && exists(jdbc, table);
		Flyway.configure(OutboxSchema.class.getClassLoader())
			.dataSource(dataSource)
			.locations(LOCATION)
			.table(history)
			.placeholders(Map.of("outbox_table", table))
			// the service's tables are there already, which Flyway takes for an unknown
			// schema unless told where this table's history begins
			.baselineOnMigrate(true)
			.baselineVersion(builtBefore ? "1" : "0")
			.baselineDescription(builtBefore ? "built by the service migrations" : "no outbox table yet")
			.load()
			.migrate();
	}

	/** The table's own migration history. */
	public static String historyTable(String table) {
		return "flyway_" + TableName.require(table) + "_history";
	}

	private static boolean exists(JdbcClient jdbc, String table) {
		return jdbc.sql(
				"SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = :table")
			.param("table", table)
			.query(Long.class)
			.single() > 0;
	}

}
