package io.kindling.infra.bench.rooms;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/** Active topics of a bench's own, written straight into matching-service's table. */
public final class BenchTopics {

	private BenchTopics() {
	}

	/**
	 * Topics {@code firstId} to {@code firstId + count - 1}, named {@code <name> <i>};
	 * ids already there are left as they are.
	 */
	public static void add(Connection db, long firstId, int count, String name) throws SQLException {
		try (PreparedStatement insert = db
			.prepareStatement("INSERT IGNORE INTO topics (id, name, active) VALUES (?, ?, TRUE)")) {
			for (int i = 0; i < count; i++) {
				insert.setLong(1, firstId + i);
				insert.setString(2, name + " " + i);
				insert.addBatch();
			}
			insert.executeBatch();
		}
	}

}
