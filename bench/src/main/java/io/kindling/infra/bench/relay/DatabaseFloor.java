package io.kindling.infra.bench.relay;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import io.kindling.infra.servers.MariaDbServer;

/**
 * The database's share of a drain on its own: the statements of the relay's claim
 * transaction (claim a batch by key hash and id with {@code FOR UPDATE}, mark it
 * published by id, commit; read committed) run by as many workers over the same key-hash
 * ranges, with no Kafka in between. What MariaDB alone allows on this machine is the
 * ceiling the relay cannot pass. The statements are copies of {@code OutboxBatch}'s
 * (another module's internals): a change to the claim there belongs here too.
 */
final class DatabaseFloor {

	private static final long HASH_SPACE = 1L << 32;

	private final String jdbcUrl;

	private final String table;

	private final int workers;

	private final int batchSize;

	DatabaseFloor(String jdbcUrl, String table, int workers, int batchSize) {
		this.jdbcUrl = jdbcUrl;
		this.table = table;
		this.workers = workers;
		this.batchSize = batchSize;
	}

	/** Drains the table; the rows marked published. */
	long drain() throws InterruptedException {
		List<Long> marked = Collections.synchronizedList(new ArrayList<>());
		List<Thread> threads = new ArrayList<>();
		for (int w = 0; w < this.workers; w++) {
			long low = w * HASH_SPACE / this.workers;
			long high = (w + 1) * HASH_SPACE / this.workers - 1;
			threads.add(Thread.ofPlatform().name("floor-" + w).start(() -> marked.add(drain(low, high))));
		}
		for (Thread thread : threads) {
			thread.join();
		}
		return marked.stream().mapToLong(Long::longValue).sum();
	}

	private long drain(long lowHash, long highHash) {
		String claimSql = """
				SELECT id, event_id, event_type, event_key, payload, attempts,
				       CAST(UNIX_TIMESTAMP(created_at) * 1000000 AS SIGNED) AS created_micros,
				       CAST(UNIX_TIMESTAMP(next_attempt_at) * 1000000 AS SIGNED) AS next_attempt_micros
				FROM %s
				WHERE published_at IS NULL AND parked_at IS NULL AND (key_hash BETWEEN ? AND ?)
				ORDER BY key_hash, id
				LIMIT ?
				FOR UPDATE""".formatted(this.table);
		long total = 0;
		try (Connection db = DriverManager.getConnection(this.jdbcUrl, MariaDbServer.USER, MariaDbServer.PASSWORD);
				PreparedStatement claim = db.prepareStatement(claimSql)) {
			// as the relay's pool sets it
			db.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
			db.setAutoCommit(false);
			while (true) {
				claim.setLong(1, lowHash);
				claim.setLong(2, highHash);
				claim.setInt(3, this.batchSize);
				List<Long> ids = new ArrayList<>(this.batchSize);
				try (ResultSet rows = claim.executeQuery()) {
					while (rows.next()) {
						ids.add(rows.getLong("id"));
						// read what the relay reads
						rows.getString("event_id");
						rows.getString("event_type");
						rows.getString("event_key");
						rows.getBytes("payload");
						rows.getLong("created_micros");
					}
				}
				if (ids.isEmpty()) {
					db.commit();
					return total;
				}
				try (PreparedStatement mark = db.prepareStatement("UPDATE " + this.table
						+ " SET published_at = ? WHERE id IN (" + "?, ".repeat(ids.size() - 1) + "?)")) {
					mark.setTimestamp(1, Timestamp.from(Instant.now()));
					for (int i = 0; i < ids.size(); i++) {
						mark.setLong(i + 2, ids.get(i));
					}
					mark.executeUpdate();
				}
				db.commit();
				total += ids.size();
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
