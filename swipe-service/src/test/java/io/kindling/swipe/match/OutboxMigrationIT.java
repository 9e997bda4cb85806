package io.kindling.swipe.match;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.zaxxer.hikari.HikariDataSource;
import io.kindling.infra.servers.MariaDbServer;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.RealServersExtension;
import io.kindling.infra.test.SchemaSnapshot;
import io.kindling.outbox.OutboxSchema;
import io.kindling.outbox.OutboxWriter;
import io.kindling.outbox.SqlTime;
import org.flywaydb.core.Flyway;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A database built by the migrations as they were before the outbox module kept
 * {@code match_outbox}'s schema ({@code src/test/resources/db/before-outbox-module}: the
 * files as they were, byte for byte, so their checksums too), holding rows, goes through
 * the service's start-up migration: every row is kept, less the {@code match_id} column
 * that each row also holds in its event id and payload; Flyway accepts its history; it
 * ends with the schema of a fresh database; and a match's events stay written once.
 */
@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "kindling_swipe")
@SpringBootTest
class OutboxMigrationIT {

	/**
	 * The last of the service's migrations when the outbox module took the table over.
	 */
	private static final String OUTBOX_MOVED = "13";

	@Autowired
	Flyway flyway;

	@Autowired
	FlywayMigrationStrategy startUp;

	@Autowired
	JsonMapper json;

	@Test
	void aDatabaseOfTheFormerMigrationsKeepsEveryRowAndEndsAsAFreshOne() {
		try (HikariDataSource former = database("swipe_former_migrations");
				HikariDataSource fresh = database("swipe_fresh_migrations")) {
			Flyway.configure().dataSource(former).locations("classpath:db/before-outbox-module").load().migrate();
			writeRows(JdbcClient.create(former));
			SchemaSnapshot before = SchemaSnapshot.of(former);
			List<Map<String, @Nullable Object>> outboxBefore = before.rows().get("match_outbox");
			assertThat(outboxBefore).hasSize(5);
			for (Map<String, @Nullable Object> row : outboxBefore) {
				// what the dropped column held, each row says twice more
				long matchId = (Long) row.get("match_id");
				assertThat(row.get("event_id"))
					.isEqualTo(MatchOutbox.eventId(matchId, (String) row.get("event_type")).toString());
				assertThat(this.json.readTree((String) row.get("payload")).get("match_id").asLong()).isEqualTo(matchId);
			}

			// up to the move; the service's later migrations (blocks, boosts) come after
			this.startUp.migrate(asTheServiceDoes(former, OUTBOX_MOVED));
			SchemaSnapshot after = SchemaSnapshot.of(former);
			assertThat(after.only(OutboxMigrationIT::dataBesideTheOutbox))
				.isEqualTo(before.only(OutboxMigrationIT::dataBesideTheOutbox));
			assertThat(after.rows().get("match_outbox")).isEqualTo(withoutMatchId(outboxBefore));
			assertThat(after.rows().get("message_outbox")).isEmpty();
			// the outbox's own history starts at what the former migrations built, then
			// come its later migrations (V2, traceparent)
			assertThat(after.rows().get(OutboxSchema.historyTable("match_outbox"))).hasSize(2)
				.first()
				.satisfies((row) -> assertThat(row).containsEntry("version", "1").containsEntry("type", "BASELINE"));
			assertThat(after.rows().get(OutboxSchema.historyTable("match_outbox")).get(1)).containsEntry("version", "2")
				.containsEntry("type", "SQL")
				.containsEntry("success", true);
			asTheServiceDoes(former, OUTBOX_MOVED).validate();

			this.startUp.migrate(asTheServiceDoes(fresh, OUTBOX_MOVED));
			assertThat(SchemaSnapshot.of(fresh).tables()).isEqualTo(after.tables());

			// a second start changes nothing
			this.startUp.migrate(asTheServiceDoes(former, OUTBOX_MOVED));
			assertThat(SchemaSnapshot.of(former)).isEqualTo(after);

			// the later migrations take both to the same schema, the rows still there
			this.startUp.migrate(asTheServiceDoes(former));
			this.startUp.migrate(asTheServiceDoes(fresh));
			assertThat(SchemaSnapshot.of(former).tables()).isEqualTo(SchemaSnapshot.of(fresh).tables());
			assertThat(SchemaSnapshot.of(former).rows().get("match_outbox")).isEqualTo(withoutMatchId(outboxBefore));
			asTheServiceDoes(former).validate();

			// the match written before the move gets no second MATCH_CREATED or
			// MATCH_REMOVED from today's writer: the event ids are the same
			JdbcClient jdbc = JdbcClient.create(former);
			MatchOutbox outbox = new MatchOutbox(new OutboxWriter(jdbc, "match_outbox"), this.json);
			new TransactionTemplate(new DataSourceTransactionManager(former)).executeWithoutResult((status) -> {
				Instant now = Instant.now();
				MatchRef match = new MatchStore(jdbc).createIfAbsent(13, 11, now).match();
				assertThat(match.matchId()).isEqualTo(2);
				outbox.matchCreated(match, now);
				outbox.matchRemoved(new MatchRemoved(match.matchId(), match.userId1(), match.userId2(),
						match.matchedAt(), now, 13, RemovalReason.UNMATCHED));
			});
			assertThat(SchemaSnapshot.of(former).rows().get("match_outbox")).isEqualTo(withoutMatchId(outboxBefore));
		}
	}

	/**
	 * The rows as the former table held them, less {@code match_id}, and with no trace
	 * context: none was stored when they were written.
	 */
	private static List<Map<String, @Nullable Object>> withoutMatchId(List<Map<String, @Nullable Object>> rows) {
		List<Map<String, @Nullable Object>> without = new ArrayList<>();
		for (Map<String, @Nullable Object> row : rows) {
			Map<String, @Nullable Object> copy = new LinkedHashMap<>(row);
			copy.remove("match_id");
			copy.put("traceparent", null);
			without.add(copy);
		}
		return without;
	}

	/** The service's own Flyway, as configured, on another database. */
	private Flyway asTheServiceDoes(HikariDataSource database) {
		return Flyway.configure().configuration(this.flyway.getConfiguration()).dataSource(database).load();
	}

	/** The same, stopping after {@code version}. */
	private Flyway asTheServiceDoes(HikariDataSource database, String version) {
		return Flyway.configure()
			.configuration(this.flyway.getConfiguration())
			.dataSource(database)
			.target(version)
			.load();
	}

	/**
	 * Not the outbox tables: {@code match_outbox}, and {@code message_outbox}, which the
	 * module makes beside it at every start-up, the former database's too.
	 */
	private static boolean dataBesideTheOutbox(String table) {
		return !table.startsWith("flyway_") && !table.endsWith("_outbox");
	}

	/**
	 * Three users, two matches (one removed), swipes, a block, and outbox rows in each
	 * state the relay leaves them in.
	 */
	private void writeRows(JdbcClient jdbc) {
		for (long user : List.of(11L, 12L, 13L)) {
			jdbc.sql("""
					INSERT INTO profiles (user_id, display_name, gender, interested_in, birth_date, lat, lon, geohash,
					    age_min, age_max, max_distance_km, desirability, created_at, updated_at, last_active_at)
					VALUES (:user, CONCAT('User ', :user), 'WOMAN', 'MAN,NONBINARY', '1995-04-01', 52.52, 13.405,
					    'u33dc0cpp', 25, 40, 50, 1012.5, '2026-12-01 08:00:00.000001', '2026-12-01 08:00:00.000002',
					    '2026-12-02 09:00:00.5')
					""").param("user", user).update();
		}
		jdbc.sql("""
				INSERT INTO matches (match_id, user_id_1, user_id_2, matched_at, removed_at, removed_by)
				VALUES (1, 11, 12, '2026-12-02 10:00:00.000123', NULL, NULL),
				       (2, 11, 13, '2026-12-02 10:01:00.000456', '2026-12-02 11:00:00.5', 13)
				""").update();
		jdbc.sql(
				"""
						INSERT INTO swipe_history (request_id, request_hash, user_id, target_user_id, action, response_status,
						    match_id, matched_at, created_at, undone_at, replay_count)
						VALUES ('req-1', REPEAT('1', 64), 11, 12, 'LIKE', 0, NULL, NULL, '2026-12-02 09:59:00.1', NULL, 0),
						       ('req-2', REPEAT('2', 64), 12, 11, 'SUPER_LIKE', 1, 1, '2026-12-02 10:00:00.000123',
						        '2026-12-02 10:00:00.0001', NULL, 2),
						       ('req-3', REPEAT('3', 64), 13, 12, 'PASS', 0, NULL, NULL, '2026-12-02 10:02:00', '2026-12-02 10:03:00', 0)
						""")
			.update();
		jdbc.sql(
				"INSERT INTO user_blocks (user_id, blocked_user_id, created_at) VALUES (13, 11, '2026-12-02 11:00:00.5')")
			.update();
		// MATCH_CREATED of match 1 published, of match 2 refused once and retrying; match
		// 2's MATCH_REMOVED parked; two more of match 1 waiting in order
		outboxRow(jdbc, 1, "11:12", "MATCH_CREATED", "published");
		outboxRow(jdbc, 2, "11:13", "MATCH_CREATED", "retrying");
		outboxRow(jdbc, 2, "11:13", "MATCH_REMOVED", "parked");
		outboxRow(jdbc, 3, "12:13", "MATCH_CREATED", "waiting");
		outboxRow(jdbc, 3, "12:13", "MATCH_REMOVED", "waiting");
	}

	/** As the former {@code MatchOutbox} wrote it, then as the relay left it. */
	private static void outboxRow(JdbcClient jdbc, long matchId, String key, String type, String state) {
		UUID eventId = MatchOutbox.eventId(matchId, type);
		jdbc.sql("""
				INSERT INTO match_outbox (event_id, event_type, event_key, key_hash, payload, created_at, match_id,
				    published_at, attempts, next_attempt_at, last_error, parked_at)
				VALUES (:eventId, :type, :key, CRC32(:key), :payload, '2026-12-02 10:00:00.120001', :matchId,
				    IF(:state = 'published', '2026-12-02 10:00:00.130002', NULL),
				    CASE :state WHEN 'retrying' THEN 1 WHEN 'parked' THEN 10 ELSE 0 END,
				    IF(:state = 'retrying', '2026-12-02 10:00:01.5', NULL),
				    IF(:state IN ('retrying', 'parked'), 'RecordTooLargeException: 1048576', NULL),
				    IF(:state = 'parked', '2026-12-02 10:05:00', NULL))
				""")
			.params(Map.of("eventId", eventId.toString(), "type", type, "key", key, "matchId", matchId, "state", state,
					"payload",
					"{\"event_id\":\"" + eventId + "\",\"event_type\":\"" + type + "\",\"event_key\":\"" + key
							+ "\",\"match_id\":" + matchId + ",\"user_ids\":[" + key.replace(':', ',')
							+ "],\"matched_at\":\"2026-12-02T10:00:00Z\",\"occurred_at\":\"2026-12-02T10:00:00.120001Z\"}"))
			.update();
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
