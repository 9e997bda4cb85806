package io.kindling.outbox;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import io.kindling.infra.servers.MariaDbServer;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.RealServersExtension;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.exception.FlywayValidateException;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcClientAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration;
import org.springframework.boot.micrometer.tracing.brave.autoconfigure.BraveAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.validation.autoconfigure.ValidationAutoConfiguration;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A service with the outbox on its classpath, as Spring Boot starts it: naming the table
 * gives it the writer, the wake-up settings and the table right after its own migrations.
 */
@RealServers(Server.MARIADB)
class OutboxAutoConfigurationIT {

	private final ApplicationContextRunner service = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
				DataSourceTransactionManagerAutoConfiguration.class, JdbcTemplateAutoConfiguration.class,
				JdbcClientAutoConfiguration.class, FlywayAutoConfiguration.class, ValidationAutoConfiguration.class,
				OutboxAutoConfiguration.class))
		.withPropertyValues("spring.datasource.username=" + MariaDbServer.USER,
				"spring.datasource.password=" + MariaDbServer.PASSWORD,
				"spring.flyway.locations=classpath:db/service-now");

	@Test
	void aServiceThatNamesItsTableGetsWriterSettingsAndTable() {
		try (TestDatabase db = new TestDatabase("outbox_auto_named")) {
			this.service.withPropertyValues(url(db), "kindling.outbox.table=service_outbox").run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(OutboxWriter.class);
				assertThat(context.getBean(OutboxProperties.class)).isEqualTo(
						new OutboxProperties("service_outbox", "127.0.0.1:8083", java.time.Duration.ofSeconds(10)));
				assertThat(db.count("facts")).isZero();
				assertThat(db.count("service_outbox")).isZero();
			});
		}
	}

	@Test
	void anOtherTableDeclaredAsABeanIsMadeBesideTheFirstAndWrittenByItsOwnWriter() {
		try (TestDatabase db = new TestDatabase("outbox_auto_other")) {
			OutboxTable other = new OutboxTable("other_outbox");
			this.service
				.withPropertyValues(url(db), "kindling.outbox.table=service_outbox", "kindling.outbox.wake-up-address=")
				.withBean(OutboxTable.class, () -> other)
				.run((context) -> {
					assertThat(context).hasNotFailed().hasSingleBean(OutboxWriter.class);
					assertThat(db.showCreateTable("other_outbox"))
						.isEqualTo(db.showCreateTable("service_outbox").replace("service_outbox", "other_outbox"));
					OutboxWriter writer = context.getBean(OutboxWriter.class);
					new TransactionTemplate(context.getBean(PlatformTransactionManager.class))
						.executeWithoutResult((status) -> writer.to(other)
							.append(new OutboxEvent(UUID.randomUUID(), "B", "k2", "{}", Instant.now())));
					assertThat(db.count("other_outbox")).isOne();
					assertThat(db.count("service_outbox")).isZero();
				});
		}
	}

	@Test
	void aServiceThatTracesStoresTheTraceOfEachAppendOnItsRow() {
		try (TestDatabase db = new TestDatabase("outbox_auto_traced")) {
			// Spring Boot's own tracing, as the services run it, whichever order it comes
			// in
			this.service
				.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class,
						MicrometerTracingAutoConfiguration.class, BraveAutoConfiguration.class))
				.withPropertyValues(url(db), "kindling.outbox.table=service_outbox", "kindling.outbox.wake-up-address=")
				.run((context) -> {
					assertThat(context).hasNotFailed();
					Tracer tracer = context.getBean(Tracer.class);
					OutboxWriter writer = context.getBean(OutboxWriter.class);
					TransactionTemplate transactions = new TransactionTemplate(
							context.getBean(PlatformTransactionManager.class));
					OutboxEvent event = new OutboxEvent(UUID.randomUUID(), "A", "k1", "{}", Instant.now());
					Span request = tracer.nextSpan().start();
					try (Tracer.SpanInScope scope = tracer.withSpan(request)) {
						transactions.executeWithoutResult((status) -> writer.append(event));
					}
					finally {
						request.end();
					}
					assertThat(db.jdbc.sql("SELECT traceparent FROM service_outbox").query(String.class).single())
						.matches("00-" + request.context().traceId() + "-" + request.context().spanId() + "-0[01]");
				});
		}
	}

	@Test
	void aServiceThatDoesNotTraceStoresNoTrace() {
		try (TestDatabase db = new TestDatabase("outbox_auto_untraced")) {
			this.service
				.withPropertyValues(url(db), "kindling.outbox.table=service_outbox", "kindling.outbox.wake-up-address=")
				.run((context) -> {
					assertThat(context).hasNotFailed().doesNotHaveBean(Tracer.class);
					new TransactionTemplate(context.getBean(PlatformTransactionManager.class))
						.executeWithoutResult((status) -> context.getBean(OutboxWriter.class)
							.append(new OutboxEvent(UUID.randomUUID(), "A", "k1", "{}", Instant.now())));
					assertThat(db.jdbc.sql("SELECT COUNT(*) FROM service_outbox WHERE traceparent IS NULL")
						.query(Long.class)
						.single()).isOne();
				});
		}
	}

	@Test
	void aServiceThatNamesNoTableHasNoOutbox() {
		try (TestDatabase db = new TestDatabase("outbox_auto_none")) {
			this.service.withPropertyValues(url(db)).run((context) -> {
				assertThat(context).hasNotFailed()
					.doesNotHaveBean(OutboxWriter.class)
					.doesNotHaveBean(OutboxProperties.class)
					.doesNotHaveBean(FlywayMigrationStrategy.class);
				assertThat(db.count("facts")).isZero();
			});
		}
	}

	@Test
	void settingsThatCannotWorkStopTheStart() {
		try (TestDatabase db = new TestDatabase("outbox_auto_bad")) {
			this.service.withPropertyValues(url(db), "kindling.outbox.table=service-outbox")
				.run((context) -> assertThat(context).hasFailed());
			this.service
				.withPropertyValues(url(db), "kindling.outbox.table=service_outbox",
						"kindling.outbox.wake-up-address=relay-without-port")
				.run((context) -> assertThat(context).hasFailed());
		}
	}

	@Test
	void aDatabaseThatRanTheFormerMigrationsStartsOnlyWithThemDeclared() {
		try (TestDatabase db = new TestDatabase("outbox_auto_moved")) {
			Flyway.configure().dataSource(db.dataSource).locations("classpath:db/service-before").load().migrate();
			db.jdbc.sql("""
					INSERT INTO service_outbox (event_id, event_type, event_key, key_hash, payload, created_at)
					VALUES ('00000000-0000-0000-0000-000000000001', 'A', 'k1', 1, '{}', NOW(6))
					""").update();
			int former = db.jdbc.sql("SELECT checksum FROM flyway_schema_history WHERE version = '1'")
				.query(Integer.class)
				.single();

			// Flyway refuses a database whose history has another text of V1
			this.service.withPropertyValues(url(db), "kindling.outbox.table=service_outbox")
				.run((context) -> assertThat(context).hasFailed()
					.getFailure()
					.hasRootCauseInstanceOf(FlywayValidateException.class));
			// and a declared former checksum that is not this database's changes nothing
			this.service.withPropertyValues(url(db), "kindling.outbox.table=service_outbox")
				.withBean(MovedOutboxMigrations.class, () -> new MovedOutboxMigrations(Map.of("1", former + 1)))
				.run((context) -> assertThat(context).hasFailed());

			this.service.withPropertyValues(url(db), "kindling.outbox.table=service_outbox")
				.withBean(MovedOutboxMigrations.class, () -> new MovedOutboxMigrations(Map.of("1", former)))
				.run((context) -> {
					assertThat(context).hasNotFailed();
					assertThat(db.jdbc.sql("SELECT COUNT(*) FROM facts WHERE happened_at IS NULL")
						.query(Long.class)
						.single()).isZero();
					assertThat(db.count("service_outbox")).isOne();
				});
			assertThat(db.jdbc.sql("SELECT checksum FROM flyway_schema_history WHERE version = '1'")
				.query(Integer.class)
				.single()).isNotEqualTo(former);
		}
	}

	private static String url(TestDatabase db) {
		return "spring.datasource.url=" + RealServersExtension.mariaDb().jdbcUrl(db.name);
	}

}
