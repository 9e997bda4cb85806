package io.kindling.matching;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.zaxxer.hikari.HikariDataSource;
import io.kindling.infra.servers.MariaDbServer;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.RealServersExtension;
import io.kindling.infra.test.SchemaSnapshot;
import io.kindling.outbox.OutboxSchema;
import io.kindling.outbox.SqlTime;
import org.flywaydb.core.Flyway;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A database built by the migrations as they were before the outbox module kept
 * {@code room_outbox}'s schema ({@code src/test/resources/db/before-outbox-module}: the
 * files as they were, byte for byte, so their checksums too), holding rows, goes through
 * the service's start-up migration: every row is kept, Flyway accepts its history, and it
 * ends with the schema of a fresh database.
 */
@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "kindling_matching")
@SpringBootTest(properties = "kindling.matching.sweep-interval=1h")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class OutboxMigrationIT {

	@Autowired
	Flyway flyway;

	@Autowired
	FlywayMigrationStrategy startUp;

	@Test
	void aDatabaseOfTheFormerMigrationsKeepsEveryRowAndEndsAsAFreshOne() {
		try (HikariDataSource former = database("matching_former_migrations");
				HikariDataSource fresh = database("matching_fresh_migrations")) {
			Flyway.configure().dataSource(former).locations("classpath:db/before-outbox-module").load().migrate();
			writeRows(JdbcClient.create(former));
			SchemaSnapshot before = SchemaSnapshot.of(former);
			assertThat(before.rows().get("room_outbox")).hasSize(4);

			this.startUp.migrate(asTheServiceDoes(former));
			SchemaSnapshot after = SchemaSnapshot.of(former);
			assertThat(after.only(OutboxMigrationIT::dataBesideTheOutbox))
				.isEqualTo(before.only(OutboxMigrationIT::dataBesideTheOutbox));
			// every outbox row as it was, with no trace context: none was stored then
			assertThat(after.rows().get("room_outbox"))
				.isEqualTo(withColumn(before.rows().get("room_outbox"), "traceparent"));
			// every participant as it was, with no network: none was kept then
			assertThat(after.rows().get("conversation_participants"))
				.isEqualTo(withColumn(before.rows().get("conversation_participants"), "network"));
			// every conversation as it was: not ended, not backfilled, no newcomer (none
			// was marked so then), none formed by the fallback to anyone (none could be)
			assertThat(after.rows().get("conversations")).isEqualTo(withColumn(
					withColumn(withColumn(withColumn(before.rows().get("conversations"), "ended_at"), "backfilled_at"),
							"backfilled_key"),
					"topic_fallback", false));
			// the service's history keeps every migration it ran, V1 and V2 with their
			// present checksums, and the outbox table's own history starts at what V1 and
			// V2 built
			// ... and the migrations added since (V10 seats, V20 room reports, V21 report
			// networks, V33 room report resolutions, V34 conversations' end and reports'
			// evidence, V35 backfill, V36 conversations' topic fallback, V37 the
			// backfill's newcomer) after them
			assertThat(after.rows().get("flyway_schema_history"))
				.hasSize(before.rows().get("flyway_schema_history").size() + 8);
			// ... and the outbox's own later migrations (V2, traceparent) after that
			assertThat(after.rows().get(OutboxSchema.historyTable("room_outbox"))).hasSize(2)
				.first()
				.satisfies((row) -> assertThat(row).containsEntry("version", "1").containsEntry("type", "BASELINE"));
			assertThat(after.rows().get(OutboxSchema.historyTable("room_outbox")).get(1)).containsEntry("version", "2")
				.containsEntry("type", "SQL")
				.containsEntry("success", true);
			asTheServiceDoes(former).validate();

			this.startUp.migrate(asTheServiceDoes(fresh));
			assertThat(SchemaSnapshot.of(fresh).tables()).isEqualTo(after.tables());

			// a second start changes nothing
			this.startUp.migrate(asTheServiceDoes(former));
			assertThat(SchemaSnapshot.of(former)).isEqualTo(after);
		}
	}

	/** The service's own Flyway, as configured, on another database. */
	private Flyway asTheServiceDoes(HikariDataSource database) {
		return Flyway.configure().configuration(this.flyway.getConfiguration()).dataSource(database).load();
	}

	/**
	 * The tables the former migrations made (seats, the reports' and their evidence came
	 * later, empty), less the outbox table, the participants and the conversations, which
	 * gained a column each.
	 */
	private static boolean dataBesideTheOutbox(String table) {
		return !table.startsWith("flyway_") && !Set
			.of("seats", "room_reports", "reported_sessions", "room_report_messages", "room_outbox",
					"conversation_participants", "conversations")
			.contains(table);
	}

	/** The rows with a column added, empty in each. */
	private static List<Map<String, @Nullable Object>> withColumn(List<Map<String, @Nullable Object>> rows,
			String column) {
		return withColumn(rows, column, null);
	}

	/** The rows with a column added, holding this value in each. */
	private static List<Map<String, @Nullable Object>> withColumn(List<Map<String, @Nullable Object>> rows,
			String column, @Nullable Object value) {
		List<Map<String, @Nullable Object>> added = new ArrayList<>();
		for (Map<String, @Nullable Object> row : rows) {
			Map<String, @Nullable Object> copy = new LinkedHashMap<>(row);
			copy.put(column, value);
			added.add(copy);
		}
		return added;
	}

	/** Outbox rows in each state the relay leaves them in, and the facts beside them. */
	private static void writeRows(JdbcClient jdbc) {
		jdbc.sql("""
				INSERT INTO conversations (id, room_id, topic_id, size, room_type, fallback, formed_at)
				VALUES (1, '8a7f3c1e-0000-4000-8000-000000000001', 42, 3, 2, TRUE, '2026-12-02 10:00:00.123456'),
				       (2, '8a7f3c1e-0000-4000-8000-000000000002', 1, 2, 2, FALSE, '2026-12-02 10:00:01.654321')
				""").update();
		jdbc.sql(
				"""
						INSERT INTO conversation_participants (conversation_id, participant_key, waiting_since)
						VALUES (1, REPEAT('a', 64), '2026-12-02 09:59:00.000001'), (1, REPEAT('b', 64), '2026-12-02 09:59:30.5'),
						       (2, REPEAT('c', 64), '2026-12-02 10:00:00'), (2, REPEAT('d', 64), '2026-12-02 10:00:01')
						""")
			.update();
		jdbc.sql("""
				INSERT INTO bans (ban_type, subject, reason, expires_at)
				VALUES ('IP', '203.0.113.7', 'spam', NULL), ('SESSION', REPEAT('e', 64), NULL, '2027-01-01 00:00:00')
				""").update();
		for (List<Object> row : List.<List<Object>>of(
				// published
				List.of("00000000-0000-4000-8000-000000000001", "8a7f3c1e-0000-4000-8000-000000000001", "published"),
				// waiting for the relay
				List.of("00000000-0000-4000-8000-000000000002", "8a7f3c1e-0000-4000-8000-000000000002", "waiting"),
				// refused once, to be tried again
				List.of("00000000-0000-4000-8000-000000000003", "8a7f3c1e-0000-4000-8000-000000000003", "retrying"),
				// refused max-attempts times
				List.of("00000000-0000-4000-8000-000000000004", "8a7f3c1e-0000-4000-8000-000000000004", "parked"))) {
			String state = (String) row.get(2);
			jdbc.sql("""
					INSERT INTO room_outbox (event_id, event_type, event_key, key_hash, payload, created_at,
					    published_at, attempts, next_attempt_at, last_error, parked_at)
					VALUES (:eventId, 'ROOM_FORMED', :roomId, CRC32(:roomId), :payload, '2026-12-02 10:00:00.120001',
					    IF(:state = 'published', '2026-12-02 10:00:00.130002', NULL),
					    CASE :state WHEN 'retrying' THEN 1 WHEN 'parked' THEN 10 ELSE 0 END,
					    IF(:state = 'retrying', '2026-12-02 10:00:01.5', NULL),
					    IF(:state IN ('retrying', 'parked'), 'RecordTooLargeException: 1048576', NULL),
					    IF(:state = 'parked', '2026-12-02 10:05:00', NULL))
					""")
				.params(Map.of("eventId", row.get(0), "roomId", row.get(1), "state", state, "payload",
						"{\"event_id\":\"" + row.get(0) + "\",\"event_type\":\"ROOM_FORMED\",\"room_id\":\""
								+ row.get(1) + "\"}"))
				.update();
		}
	}

	private static HikariDataSource database(String name) {
		RealServersExtension.mariaDb().sql("DROP DATABASE IF EXISTS `" + name + "`");
		RealServersExtension.mariaDb().createDatabase(name);
		HikariDataSource dataSource = new HikariDataSource();
		dataSource.setJdbcUrl(RealServersExtension.mariaDb().jdbcUrl(name));
		dataSource.setUsername(MariaDbServer.USER);
		dataSource.setPassword(MariaDbServer.PASSWORD);
		SqlTime.UTC_CONNECTION.forEach(dataSource::addDataSourceProperty);
		return dataSource;
	}

}
