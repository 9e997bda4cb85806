package io.kindling.relay.source;

import java.sql.Connection;
import java.time.Duration;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.kindling.outbox.SqlTime;
import io.kindling.relay.RelayProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * One outbox table, the database it lives in (with its own pool) and the topic its rows
 * go to. Beside the table lives {@code outbox_relay_partition}: one row per partition of
 * the key-hash space, locked by whichever relay publishes that partition's rows.
 */
public final class OutboxSource implements AutoCloseable {

	/** The lock rows; created by the relay once the owning service created its table. */
	static final String PARTITION_TABLE = """
			CREATE TABLE IF NOT EXISTS outbox_relay_partition (
			    outbox_table VARCHAR(64) NOT NULL,
			    partition_no INT         NOT NULL,
			    PRIMARY KEY (outbox_table, partition_no)
			) ENGINE = InnoDB
			""";

	private static final Logger log = LoggerFactory.getLogger(OutboxSource.class);

	private final RelayProperties.Source settings;

	private final int partitions;

	private final HikariDataSource dataSource;

	private final JdbcClient jdbc;

	private final TransactionTemplate transactions;

	/** What the last readiness check found; once {@link Publishing}, it stays so. */
	private volatile Readiness readiness = new NotChecked();

	public OutboxSource(RelayProperties.Source settings, int partitions, int poolSize) {
		this.settings = settings;
		this.partitions = partitions;
		HikariConfig config = new HikariConfig();
		config.setPoolName("relay-" + settings.name());
		config.setJdbcUrl(settings.url());
		config.setUsername(settings.username());
		config.setPassword(settings.password());
		config.setMaximumPoolSize(poolSize);
		// Read committed: the claim's range scan must not gap-lock the writers' inserts.
		config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
		config.setConnectionTimeout(Duration.ofSeconds(5).toMillis());
		// The owning service may start later than the relay; the pool connects when it
		// can.
		config.setInitializationFailTimeout(-1);
		// The driver remembers autocommit and isolation instead of asking the server
		// around every claim transaction.
		config.addDataSourceProperty("useLocalSessionState", "true");
		// Connector/J parses a statement's text on every prepare unless it caches it;
		// the mark of a full batch names thousands of ids, and its text repeats batch
		// after batch (6 % of the relay's CPU went to parsing it again).
		config.addDataSourceProperty("cachePrepStmts", "true");
		config.addDataSourceProperty("prepStmtCacheSize", "64");
		config.addDataSourceProperty("prepStmtCacheSqlLimit", "65536");
		// Every connection in UTC, as the services' are: the driver reads parked_at and
		// created_at as UTC, and the session's FROM_UNIXTIME has no daylight-saving hour.
		SqlTime.UTC_CONNECTION.forEach(config::addDataSourceProperty);
		this.dataSource = new HikariDataSource(config);
		this.jdbc = JdbcClient.create(this.dataSource);
		// Read committed comes from the pool, set once per connection.
		this.transactions = new TransactionTemplate(new DataSourceTransactionManager(this.dataSource));
	}

	public String name() {
		return this.settings.name();
	}

	public String table() {
		return this.settings.table();
	}

	public String topic() {
		return this.settings.topic();
	}

	public JdbcClient jdbc() {
		return this.jdbc;
	}

	public TransactionTemplate transactions() {
		return this.transactions;
	}

	/** What the last readiness check found, for the health endpoint. */
	public String state() {
		return this.readiness.toString();
	}

	/**
	 * True once the outbox table exists in the shape this relay reads (with its
	 * {@code traceparent} column) and the partition lock rows are in place. Until the
	 * owning service's migration has created the table the relay waits, so that it never
	 * creates anything in a schema that service's Flyway has not initialised yet; a table
	 * of an older shape waits for that service's next start to migrate it.
	 */
	public boolean ready() {
		if (this.readiness instanceof Publishing) {
			return true;
		}
		try {
			Integer tables = this.jdbc.sql("""
					SELECT COUNT(*) FROM information_schema.tables
					WHERE table_schema = DATABASE() AND table_name = :table
					""").param("table", table()).query(Integer.class).single();
			if (tables == 0) {
				this.readiness = new WaitingForTable(table());
				return false;
			}
			Integer traceparent = this.jdbc.sql("""
					SELECT COUNT(*) FROM information_schema.columns
					WHERE table_schema = DATABASE() AND table_name = :table AND column_name = 'traceparent'
					""").param("table", table()).query(Integer.class).single();
			if (traceparent == 0) {
				this.readiness = new WaitingForMigration(table());
				return false;
			}
			this.jdbc.sql(PARTITION_TABLE).update();
			// Only when rows are missing: INSERT IGNORE on a row that another relay's
			// claim holds waits for that claim (up to the lock wait timeout), and a relay
			// starting beside a busy one would stay unready that long.
			Integer present = this.jdbc.sql(
					"SELECT COUNT(*) FROM outbox_relay_partition WHERE outbox_table = :table AND partition_no < :partitions")
				.param("table", table())
				.param("partitions", this.partitions)
				.query(Integer.class)
				.single();
			if (present < this.partitions) {
				String rows = IntStream.range(0, this.partitions)
					.mapToObj((partition) -> "(:table, " + partition + ")")
					.collect(Collectors.joining(", "));
				this.jdbc.sql("INSERT IGNORE INTO outbox_relay_partition (outbox_table, partition_no) VALUES " + rows)
					.param("table", table())
					.update();
			}
			this.readiness = new Publishing();
			log.info("{} is ready: {} partitions", this.settings, this.partitions);
			return true;
		}
		catch (RuntimeException ex) {
			this.readiness = new Unreachable(String.valueOf(ex.getMessage()));
			return false;
		}
	}

	/** Checks the connection answers, for the health endpoint. */
	public boolean reachable() {
		try (Connection connection = this.dataSource.getConnection()) {
			return connection.isValid(2);
		}
		catch (Exception ex) {
			return false;
		}
	}

	@Override
	public void close() {
		this.dataSource.close();
	}

	@Override
	public String toString() {
		return this.settings.toString();
	}

	/** Where a source stands on its way to publishing; its text is what health shows. */
	private sealed interface Readiness {

	}

	private record NotChecked() implements Readiness {

		@Override
		public String toString() {
			return "not checked yet";
		}

	}

	private record WaitingForTable(String table) implements Readiness {

		@Override
		public String toString() {
			return "waiting for table " + this.table;
		}

	}

	private record WaitingForMigration(String table) implements Readiness {

		@Override
		public String toString() {
			return "waiting for table " + this.table
					+ " to have its traceparent column (its service adds it when it starts)";
		}

	}

	private record Unreachable(String reason) implements Readiness {

		@Override
		public String toString() {
			return "unreachable: " + this.reason;
		}

	}

	private record Publishing() implements Readiness {

		@Override
		public String toString() {
			return "publishing";
		}

	}

}
