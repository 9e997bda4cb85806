package io.kindling.infra.test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

/**
 * Every table of a database as {@code SHOW CREATE TABLE} prints it (less the
 * {@code AUTO_INCREMENT} counter, which only says how many rows were ever written) and
 * every row, to compare a database before and after a migration, or two databases that
 * took different paths to what should be one schema.
 *
 * @param tables each table's {@code CREATE TABLE} statement, by name
 * @param rows each table's rows in a stable order (by every column), by name
 */
public record SchemaSnapshot(Map<String, String> tables, Map<String, List<Map<String, @Nullable Object>>> rows) {

	public static SchemaSnapshot of(DataSource dataSource) {
		Map<String, String> tables = new TreeMap<>();
		Map<String, List<Map<String, @Nullable Object>>> rows = new TreeMap<>();
		try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
			List<String> names = new ArrayList<>();
			try (ResultSet result = statement.executeQuery("SHOW TABLES")) {
				while (result.next()) {
					names.add(result.getString(1));
				}
			}
			for (String name : names) {
				try (ResultSet result = statement.executeQuery("SHOW CREATE TABLE `" + name + "`")) {
					result.next();
					tables.put(name, result.getString(2).replaceAll(" AUTO_INCREMENT=\\d+", ""));
				}
				rows.put(name, rows(statement, name));
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
		return new SchemaSnapshot(tables, rows);
	}

	private static List<Map<String, @Nullable Object>> rows(Statement statement, String table) throws SQLException {
		int columns;
		try (ResultSet result = statement.executeQuery("SELECT * FROM `" + table + "` LIMIT 0")) {
			columns = result.getMetaData().getColumnCount();
		}
		StringBuilder order = new StringBuilder();
		for (int i = 1; i <= columns; i++) {
			order.append((i > 1) ? ", " : "").append(i);
		}
		List<Map<String, @Nullable Object>> rows = new ArrayList<>();
		try (ResultSet result = statement.executeQuery("SELECT * FROM `" + table + "` ORDER BY " + order)) {
			while (result.next()) {
				Map<String, @Nullable Object> row = new LinkedHashMap<>();
				for (int i = 1; i <= columns; i++) {
					Object value = result.getObject(i);
					// arrays compare by identity; their bytes say what they hold
					row.put(result.getMetaData().getColumnLabel(i),
							(value instanceof byte[] bytes) ? HexFormat.of().formatHex(bytes) : value);
				}
				rows.add(row);
			}
		}
		return rows;
	}

	/** The same snapshot with only the tables whose names pass. */
	public SchemaSnapshot only(Predicate<String> tableNames) {
		Map<String, String> tables = new TreeMap<>();
		Map<String, List<Map<String, @Nullable Object>>> rows = new TreeMap<>();
		this.tables.forEach((name, create) -> {
			if (tableNames.test(name)) {
				tables.put(name, create);
				rows.put(name, this.rows.get(name));
			}
		});
		return new SchemaSnapshot(tables, rows);
	}

}
