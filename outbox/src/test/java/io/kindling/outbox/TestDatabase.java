package io.kindling.outbox;

import java.util.List;
import java.util.Map;

import com.zaxxer.hikari.HikariDataSource;
import io.kindling.infra.servers.MariaDbServer;
import io.kindling.infra.test.RealServersExtension;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * An empty database of its own on the real MariaDB, with a pool set up as the services'
 * (UTC both ways), and transactions as the services run them.
 */
final class TestDatabase implements AutoCloseable {

	final String name;

	final HikariDataSource dataSource;

	final JdbcClient jdbc;

	final TransactionTemplate transactions;

	TestDatabase(String name) {
		this.name = name;
		RealServersExtension.mariaDb().sql("DROP DATABASE IF EXISTS `" + name + "`");
		RealServersExtension.mariaDb().createDatabase(name);
		this.dataSource = new HikariDataSource();
		this.dataSource.setJdbcUrl(RealServersExtension.mariaDb().jdbcUrl(name));
		this.dataSource.setUsername(MariaDbServer.USER);
		this.dataSource.setPassword(MariaDbServer.PASSWORD);
		this.dataSource.setMaximumPoolSize(20);
		SqlTime.UTC_CONNECTION.forEach(this.dataSource::addDataSourceProperty);
		this.jdbc = JdbcClient.create(this.dataSource);
		this.transactions = new TransactionTemplate(new DataSourceTransactionManager(this.dataSource));
	}

	List<Map<String, Object>> rows(String table) {
		return this.jdbc.sql("SELECT * FROM " + table + " ORDER BY id").query().listOfRows();
	}

	long count(String table) {
		return this.jdbc.sql("SELECT COUNT(*) FROM " + table).query(Long.class).single();
	}

	String showCreateTable(String table) {
		return this.jdbc.sql("SHOW CREATE TABLE " + table)
			.query((rs, row) -> rs.getString(2))
			.single()
			.replaceAll(" AUTO_INCREMENT=\\d+", "");
	}

	@Override
	public void close() {
		this.dataSource.close();
	}

}
