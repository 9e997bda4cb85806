package io.kindling.infra.bench.swipes;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.kindling.infra.bench.Load.Result;
import io.kindling.infra.bench.swipes.SwipeMix.Swipe;
import io.kindling.infra.servers.MariaDbServer;

/**
 * The plain two-transaction swipe write by raw JDBC, one connection per client: TX 1 for
 * every swipe, and TX 2 when a like finds the other side's like (known here from the
 * loop's own memory, standing in for the Redis script).
 */
final class JdbcSwipes {

	private final String jdbcUrl;

	private final SwipeMix mix;

	private final Set<String> likes = ConcurrentHashMap.newKeySet();

	private final Queue<Connection> idle = new ConcurrentLinkedQueue<>();

	private final List<Connection> opened = new ArrayList<>();

	JdbcSwipes(String jdbcUrl, long offset, int users) {
		this.jdbcUrl = jdbcUrl;
		this.mix = new SwipeMix(offset + 1, users);
	}

	Result closedLoop(int clients, int seconds) throws InterruptedException {
		try {
			return this.mix.closedLoop(clients, seconds, this::swipe);
		}
		finally {
			closeConnections();
		}
	}

	/**
	 * The same transactions at a fixed rate, for the HTTP half-rate row's baseline.
	 */
	Result openLoop(double perSecond, int seconds) throws InterruptedException {
		try {
			return this.mix.openLoop(perSecond, seconds, this::swipe);
		}
		finally {
			closeConnections();
		}
	}

	private void closeConnections() {
		this.idle.clear();
		synchronized (this.opened) {
			for (Connection connection : this.opened) {
				try {
					connection.close();
				}
				catch (SQLException ex) {
					// closing after the run
				}
			}
			this.opened.clear();
		}
	}

	/** A connection not in use, or a new one; a swipe holds it until it returns. */
	private Connection connection() throws SQLException {
		Connection connection = this.idle.poll();
		if (connection == null) {
			connection = DriverManager.getConnection(this.jdbcUrl, MariaDbServer.USER, MariaDbServer.PASSWORD);
			connection.setAutoCommit(false);
			synchronized (this.opened) {
				this.opened.add(connection);
			}
		}
		return connection;
	}

	boolean swipe(Swipe swipe) throws SQLException {
		Connection db = connection();
		try {
			boolean matched = swipeOn(db, swipe);
			this.idle.add(db);
			return matched;
		}
		catch (SQLException | RuntimeException ex) {
			synchronized (this.opened) {
				this.opened.remove(db);
			}
			db.close();
			throw ex;
		}
	}

	private boolean swipeOn(Connection db, Swipe swipe) throws SQLException {
		boolean like = !swipe.action().equals("PASS");
		boolean mutual = false;
		try {
			try (PreparedStatement insert = db.prepareStatement("""
					INSERT INTO swipe_history (request_id, request_hash, user_id, target_user_id, action, created_at)
					VALUES (?, ?, ?, ?, ?, NOW())
					ON DUPLICATE KEY UPDATE request_id = request_id""")) {
				insert.setString(1, swipe.key());
				insert.setString(2, sha256(swipe));
				insert.setLong(3, swipe.userId());
				insert.setLong(4, swipe.targetUserId());
				insert.setString(5, swipe.action());
				insert.executeUpdate();
			}
			Integer status;
			try (PreparedStatement select = db.prepareStatement("""
					SELECT request_hash, swipe_id, target_user_id, action, response_status, match_id, matched_at,
					       created_at, undone_at
					FROM swipe_history
					WHERE user_id = ? AND request_id = ?
					FOR UPDATE""")) {
				select.setLong(1, swipe.userId());
				select.setString(2, swipe.key());
				try (ResultSet rs = select.executeQuery()) {
					rs.next();
					int value = rs.getInt("response_status");
					status = rs.wasNull() ? null : value;
				}
			}
			if (status == null) {
				if (like) {
					this.likes.add(swipe.userId() + ">" + swipe.targetUserId());
					mutual = this.likes.contains(swipe.targetUserId() + ">" + swipe.userId());
				}
				if (!mutual) {
					try (PreparedStatement finish = db.prepareStatement("""
							UPDATE swipe_history SET response_status = 0
							WHERE user_id = ? AND request_id = ? AND response_status IS NULL""")) {
						finish.setLong(1, swipe.userId());
						finish.setString(2, swipe.key());
						finish.executeUpdate();
					}
				}
			}
			db.commit();
		}
		catch (SQLException ex) {
			db.rollback();
			throw ex;
		}
		if (mutual) {
			secondTransaction(db, swipe);
		}
		return mutual;
	}

	private void secondTransaction(Connection db, Swipe swipe) throws SQLException {
		long a = swipe.userId();
		long b = swipe.targetUserId();
		try {
			try (PreparedStatement match = db.prepareStatement("""
					INSERT INTO matches (user_id_1, user_id_2, matched_at)
					VALUES (LEAST(?, ?), GREATEST(?, ?), NOW())
					ON DUPLICATE KEY UPDATE matched_at = matched_at""")) {
				match.setLong(1, a);
				match.setLong(2, b);
				match.setLong(3, a);
				match.setLong(4, b);
				match.executeUpdate();
			}
			try (PreparedStatement update = db.prepareStatement(
					"""
							UPDATE swipe_history
							SET response_status = 1,
							    match_id = (SELECT match_id FROM matches WHERE user_id_1 = LEAST(?, ?) AND user_id_2 = GREATEST(?, ?)),
							    matched_at = (SELECT matched_at FROM matches WHERE user_id_1 = LEAST(?, ?) AND user_id_2 = GREATEST(?, ?))
							WHERE user_id = ? AND request_id = ?""")) {
				for (int i = 0; i < 8; i += 2) {
					update.setLong(i + 1, a);
					update.setLong(i + 2, b);
				}
				update.setLong(9, a);
				update.setString(10, swipe.key());
				update.executeUpdate();
			}
			String key = Math.min(a, b) + ":" + Math.max(a, b);
			try (PreparedStatement outbox = db.prepareStatement("""
					INSERT INTO match_outbox (event_id, event_type, event_key, key_hash, payload, created_at)
					SELECT UUID(), 'MATCH_CREATED', ?, CRC32(?), '{}', NOW(6)
					FROM matches
					WHERE user_id_1 = LEAST(?, ?) AND user_id_2 = GREATEST(?, ?)
					ON DUPLICATE KEY UPDATE event_id = event_id""")) {
				outbox.setString(1, key);
				outbox.setString(2, key);
				outbox.setLong(3, a);
				outbox.setLong(4, b);
				outbox.setLong(5, a);
				outbox.setLong(6, b);
				outbox.executeUpdate();
			}
			db.commit();
		}
		catch (SQLException ex) {
			db.rollback();
			throw ex;
		}
	}

	private static String sha256(Swipe swipe) {
		String canonical = "user_id=" + swipe.userId() + "\ntarget_user_id=" + swipe.targetUserId() + "\naction="
				+ swipe.action();
		try {
			return HexFormat.of()
				.formatHex(MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8)));
		}
		catch (java.security.NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
