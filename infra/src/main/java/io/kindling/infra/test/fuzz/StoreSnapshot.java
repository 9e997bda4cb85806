package io.kindling.infra.test.fuzz;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

import io.kindling.infra.test.RealServersExtension;

/**
 * What a service keeps, read whole so that two reads can be compared: every table's
 * checksum and row count, every Redis key's serialized value.
 */
public final class StoreSnapshot {

	private StoreSnapshot() {
	}

	/** {@link #database} of the test's own database, as {@code @RealServers} set it. */
	public static Map<String, String> springDatasource() {
		return database(RealServersExtension.mariaDb().jdbcUrl(System.getProperty("kindling.database.name")),
				System.getProperty("spring.datasource.username"), System.getProperty("spring.datasource.password"));
	}

	/** Table name to "rows/checksum" for every table of the database in the URL. */
	public static Map<String, String> database(String jdbcUrl, String user, String password) {
		Map<String, String> tables = new TreeMap<>();
		try (Connection connection = DriverManager.getConnection(jdbcUrl, user, password);
				Statement statement = connection.createStatement()) {
			List<String> names = new ArrayList<>();
			try (ResultSet rs = statement
				.executeQuery("SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE()")) {
				while (rs.next()) {
					names.add(rs.getString(1));
				}
			}
			for (String name : names) {
				String rows;
				try (ResultSet rs = statement.executeQuery("SELECT COUNT(*) FROM `" + name + "`")) {
					rs.next();
					rows = rs.getString(1);
				}
				try (ResultSet rs = statement.executeQuery("CHECKSUM TABLE `" + name + "` EXTENDED")) {
					rs.next();
					tables.put(name, rows + "/" + rs.getString(2));
				}
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException("could not read " + jdbcUrl, ex);
		}
		return tables;
	}

	/** Key to its type and {@code DUMP}, for every key of Redis database {@code db}. */
	public static Map<String, String> redis(String host, int port, int db) {
		Map<String, String> keys = new TreeMap<>();
		try (Jedis jedis = new Jedis(host, port)) {
			jedis.select(db);
			String cursor = ScanParams.SCAN_POINTER_START;
			do {
				ScanResult<String> page = jedis.scan(cursor, new ScanParams().count(1000));
				for (String key : page.getResult()) {
					byte[] dump = jedis.dump(key);
					keys.put(key, jedis.type(key) + ":"
							+ ((dump != null) ? Base64.getEncoder().encodeToString(dump) : "gone"));
				}
				cursor = page.getCursor();
			}
			while (!cursor.equals(ScanParams.SCAN_POINTER_START));
		}
		return keys;
	}

}
