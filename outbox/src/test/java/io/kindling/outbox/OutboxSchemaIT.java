package io.kindling.outbox;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The outbox table's own migrations on the real MariaDB: a fresh database gets the table,
 * one whose service built it before keeps it and its rows, and each table keeps its own
 * history.
 */
@RealServers(Server.MARIADB)
class OutboxSchemaIT {

	@Test
	void anEmptyDatabaseGetsTheTableAndAgainChangesNothing() {
		try (TestDatabase db = new TestDatabase("outbox_schema_empty")) {
			OutboxSchema.migrate(db.dataSource, "room_outbox");
			String made = db.showCreateTable("room_outbox");
			assertThat(made).contains("`event_id` char(36) NOT NULL", "UNIQUE KEY `uk_outbox_event_id` (`event_id`)",
					"KEY `idx_outbox_unpublished` (`published_at`,`key_hash`,`id`)",
					"`traceparent` varchar(55) DEFAULT NULL");
			assertThat(appliedVersions(db, "room_outbox")).containsExactly("1", "2");

			OutboxSchema.migrate(db.dataSource, "room_outbox");
			assertThat(db.showCreateTable("room_outbox")).isEqualTo(made);
			assertThat(appliedVersions(db, "room_outbox")).containsExactly("1", "2");
		}
	}

	@Test
	void aServiceDatabaseWithoutTheTableGetsIt() {
		try (TestDatabase db = new TestDatabase("outbox_schema_service")) {
			// the service's own migrations ran first: the database is not empty
			Flyway.configure().dataSource(db.dataSource).locations("classpath:db/service-now").load().migrate();
			OutboxSchema.migrate(db.dataSource, "service_outbox");
			assertThat(db.count("service_outbox")).isZero();
			assertThat(appliedVersions(db, "service_outbox")).containsExactly("0", "1", "2");
		}
	}

	@Test
	void aTableItsServiceBuiltBeforeKeepsItsRowsAndEndsAsAFreshOne() {
		String fresh;
		try (TestDatabase db = new TestDatabase("outbox_schema_fresh")) {
			Flyway.configure().dataSource(db.dataSource).locations("classpath:db/service-now").load().migrate();
			OutboxSchema.migrate(db.dataSource, "service_outbox");
			fresh = db.showCreateTable("service_outbox");
		}
		try (TestDatabase db = new TestDatabase("outbox_schema_before")) {
			Flyway.configure().dataSource(db.dataSource).locations("classpath:db/service-before").load().migrate();
			db.jdbc
				.sql("""
						INSERT INTO service_outbox (event_id, event_type, event_key, key_hash, payload, created_at,
						    published_at, attempts, next_attempt_at, last_error, parked_at)
						VALUES ('00000000-0000-0000-0000-000000000001', 'A', 'k1', 1, '{"a":1}', NOW(6), NOW(6), 1, NULL, NULL, NULL),
						       ('00000000-0000-0000-0000-000000000002', 'B', 'k2', 2, '{"b":2}', NOW(6), NULL, 3, NOW(6), 'no', NULL),
						       ('00000000-0000-0000-0000-000000000003', 'C', 'k3', 3, '{"c":3}', NOW(6), NULL, 10, NULL, 'no', NOW(6))
						""")
				.update();
			List<Map<String, Object>> before = db.rows("service_outbox");

			OutboxSchema.migrate(db.dataSource, "service_outbox");
			// every row as it was, with no trace context: none was stored when it was
			// written
			assertThat(db.rows("service_outbox")).isEqualTo(withNoTraceparent(before));
			assertThat(db.showCreateTable("service_outbox")).isEqualTo(fresh);
			// version 1 is what the service built: it is not run again, the later ones
			// are
			assertThat(appliedVersions(db, "service_outbox")).containsExactly("1", "2");
			assertThat(db.jdbc
				.sql("SELECT type FROM " + OutboxSchema.historyTable("service_outbox") + " ORDER BY installed_rank")
				.query(String.class)
				.list()).containsExactly("BASELINE", "SQL");

			// and the writer appends to it as to any other
			db.transactions.executeWithoutResult((status) -> new OutboxWriter(db.jdbc, "service_outbox")
				.append(new OutboxEvent(java.util.UUID.randomUUID(), "D", "k4", "{}", Instant.now())));
			assertThat(db.count("service_outbox")).isEqualTo(4);
		}
	}

	@Test
	void eachTableKeepsItsOwnHistory() {
		try (TestDatabase db = new TestDatabase("outbox_schema_two")) {
			OutboxSchema.migrate(db.dataSource, "room_outbox");
			OutboxSchema.migrate(db.dataSource, "match_outbox");
			assertThat(appliedVersions(db, "room_outbox")).containsExactly("1", "2");
			assertThat(appliedVersions(db, "match_outbox")).containsExactly("0", "1", "2");
			assertThat(db.showCreateTable("match_outbox"))
				.isEqualTo(db.showCreateTable("room_outbox").replace("room_outbox", "match_outbox"));
		}
	}

	@Test
	void aNameThatCannotBeATableIsRefused() {
		for (String name : List.of("room-outbox", "Room_outbox", "1_outbox", "", "outbox; DROP TABLE x",
				"a".repeat(50))) {
			assertThatIllegalArgumentException().isThrownBy(() -> OutboxSchema.historyTable(name))
				.withMessageContaining("not an outbox table name");
		}
		assertThat(OutboxSchema.historyTable("a".repeat(49))).hasSize(64);
	}

	private static List<Map<String, Object>> withNoTraceparent(List<Map<String, Object>> rows) {
		List<Map<String, Object>> added = new java.util.ArrayList<>();
		for (Map<String, Object> row : rows) {
			Map<String, Object> copy = new java.util.LinkedHashMap<>(row);
			copy.put("traceparent", null);
			added.add(copy);
		}
		return added;
	}

	private static List<String> appliedVersions(TestDatabase db, String table) {
		return db.jdbc
			.sql("SELECT version FROM " + OutboxSchema.historyTable(table) + " WHERE success ORDER BY installed_rank")
			.query(String.class)
			.list();
	}

}
