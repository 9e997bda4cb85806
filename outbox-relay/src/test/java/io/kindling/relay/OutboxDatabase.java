package io.kindling.relay;

import java.time.Instant;
import java.util.UUID;

import com.zaxxer.hikari.HikariDataSource;
import io.kindling.infra.servers.MariaDbServer;
import io.kindling.infra.test.RealServersExtension;
import io.kindling.outbox.OutboxEvent;
import io.kindling.outbox.OutboxSchema;
import io.kindling.outbox.OutboxWriter;
import io.kindling.outbox.SqlTime;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A test database on the real MariaDB with an outbox table made by the outbox's own
 * migrations, as the services make theirs, written to the way the services write:
 * {@link OutboxWriter} inside a transaction.
 */
final class OutboxDatabase implements AutoCloseable {

	final String database;

	final String table;

	final HikariDataSource dataSource;

	final JdbcClient jdbc;

	final TransactionTemplate transactions;

	final OutboxWriter writer;

	OutboxDatabase(String database, String table) {
		this.database = database;
		this.table = table;
		RealServersExtension.mariaDb().createDatabase(database);
		this.dataSource = new HikariDataSource();
		this.dataSource.setJdbcUrl(jdbcUrl());
		this.dataSource.setUsername(MariaDbServer.USER);
		this.dataSource.setPassword(MariaDbServer.PASSWORD);
		this.dataSource.setMaximumPoolSize(24);
		// as a service's pool: the test reads created_at back in the JVM's zone otherwise
		SqlTime.UTC_CONNECTION.forEach(this.dataSource::addDataSourceProperty);
		this.jdbc = JdbcClient.create(this.dataSource);
		this.transactions = new TransactionTemplate(new DataSourceTransactionManager(this.dataSource));
		this.jdbc.sql("DROP TABLE IF EXISTS " + table + ", " + OutboxSchema.historyTable(table)).update();
		OutboxSchema.migrate(this.dataSource, table);
		this.writer = new OutboxWriter(this.jdbc, table);
	}

	String jdbcUrl() {
		return RealServersExtension.mariaDb().jdbcUrl(this.database);
	}

	/** Writes one event in its own committed transaction; returns its id. */
	String write(String key, String payloadSuffix) {
		String eventId = UUID.randomUUID().toString();
		this.transactions.executeWithoutResult((status) -> this.writer.append(event(eventId, key, payloadSuffix)));
		return eventId;
	}

	static OutboxEvent event(String eventId, String key, String payloadSuffix) {
		String payload = "{\"event_id\":\"" + eventId + "\",\"event_type\":\"MATCH_CREATED\",\"event_key\":\"" + key
				+ "\"" + payloadSuffix + "}";
		return new OutboxEvent(UUID.fromString(eventId), "MATCH_CREATED", key, payload, Instant.now());
	}

	@Override
	public void close() {
		this.dataSource.close();
	}

}
