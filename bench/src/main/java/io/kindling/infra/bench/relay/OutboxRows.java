package io.kindling.infra.bench.relay;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import java.util.zip.CRC32;

import io.kindling.infra.bench.BenchStack;

/**
 * The relay bench's outbox tables, of the services' own shape, and the rows it writes
 * into them: 10,000 keys, a MATCH_CREATED-shaped payload of about 300 bytes.
 */
final class OutboxRows {

	static final String DATABASE = "kindling_swipe";

	static final String INSERT = " (event_id, event_type, event_key, key_hash, payload, created_at) VALUES (?, ?, ?, ?, ?, ?)";

	private final BenchStack stack;

	OutboxRows(BenchStack stack) {
		this.stack = stack;
	}

	/**
	 * Creates each table from the outbox's migrations as the services run them, in
	 * version order: the table the relay publishes is the services' table.
	 */
	void createTables(String... tables) throws IOException, SQLException {
		List<Path> migrations;
		try (Stream<Path> files = Files.list(this.stack.root().resolve("outbox/src/main/resources/db/outbox"))) {
			migrations = files.filter((file) -> file.getFileName().toString().matches("V\\d+__.*\\.sql"))
				.sorted(Comparator.comparingInt((Path file) -> Integer
					.parseInt(file.getFileName().toString().replaceFirst("^V(\\d+)__.*", "$1"))))
				.toList();
		}
		try (Connection db = this.stack.connect(DATABASE); Statement statement = db.createStatement()) {
			for (String table : tables) {
				for (Path migration : migrations) {
					statement.execute(
							Files.readString(migration).strip().replace("${outbox_table}", table).replace(";", ""));
				}
			}
		}
	}

	/** {@code rows} events in the table, committed 5,000 at a time. */
	void insertBacklog(String table, int rows) throws SQLException {
		try (Connection db = this.stack.connect(DATABASE)) {
			db.setAutoCommit(false);
			Timestamp now = Timestamp.from(Instant.now());
			try (PreparedStatement insert = db.prepareStatement("INSERT INTO " + table + INSERT)) {
				for (int i = 0; i < rows; i++) {
					Event.next(i).bind(insert, now);
					insert.addBatch();
					if (i % 5_000 == 4_999) {
						insert.executeBatch();
						db.commit();
					}
				}
				insert.executeBatch();
				db.commit();
			}
		}
	}

	void deleteUnpublished(String table) throws SQLException {
		try (Connection db = this.stack.connect(DATABASE); Statement statement = db.createStatement()) {
			statement.execute("DELETE FROM " + table + " WHERE published_at IS NULL");
		}
	}

	long unpublished(String table) throws SQLException {
		try (Connection db = this.stack.connect(DATABASE);
				ResultSet rs = db.createStatement()
					.executeQuery("SELECT COUNT(*) FROM " + table + " WHERE published_at IS NULL")) {
			rs.next();
			return rs.getLong(1);
		}
	}

	/** The statements MariaDB ran so far ({@code Questions}). */
	long statements() {
		return this.stack.usage().sqlStatements();
	}

	/** One event of the bench. */
	record Event(String eventId, String key, long keyHash, String payload) {

		static Event next(int i) {
			String eventId = UUID.randomUUID().toString();
			int low = i % 10_000;
			String key = low + ":" + (low + 100_000);
			CRC32 crc = new CRC32();
			crc.update(key.getBytes(StandardCharsets.UTF_8));
			String payload = "{\"event_id\":\"" + eventId + "\",\"event_type\":\"MATCH_CREATED\",\"event_key\":\"" + key
					+ "\",\"match_id\":" + i + ",\"user_ids\":[" + low + "," + (low + 100_000)
					+ "],\"matched_at\":\"2026-12-02T10:00:00Z\",\"occurred_at\":\"2026-12-02T10:00:00.120Z\"}";
			return new Event(eventId, key, crc.getValue(), payload);
		}

		/** Its values for {@link OutboxRows#INSERT}. */
		void bind(PreparedStatement insert, Timestamp createdAt) throws SQLException {
			insert.setString(1, this.eventId);
			insert.setString(2, "MATCH_CREATED");
			insert.setString(3, this.key);
			insert.setLong(4, this.keyHash);
			insert.setString(5, this.payload);
			insert.setTimestamp(6, createdAt);
		}

	}

}
