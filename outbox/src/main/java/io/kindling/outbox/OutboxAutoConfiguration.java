package io.kindling.outbox;

import java.time.Clock;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A service that names its outbox table ({@code kindling.outbox.table}) gets its
 * {@link OutboxWriter}, ringing the relays after each commit and storing the current
 * trace context on each row when the service traces (a Micrometer {@code Tracer} bean),
 * and has the table made and migrated right after its own Flyway migrations, before
 * anything else uses the database, one instance at a time ({@link MigrationLock}), and so
 * is every other table it declares as an {@link OutboxTable} bean; with Micrometer, the
 * gauge of its backlog ({@link OutboxBacklog}). A service with a
 * {@code FlywayMigrationStrategy} of its own replaces this one, and calls
 * {@link OutboxSchema#migrate} itself.
 */
@AutoConfiguration(afterName = "org.springframework.boot.jdbc.autoconfigure.JdbcClientAutoConfiguration",
		beforeName = "org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration")
@ConditionalOnProperty(prefix = "kindling.outbox", name = "table")
@EnableConfigurationProperties(OutboxProperties.class)
public final class OutboxAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	OutboxWriter outboxWriter(JdbcClient jdbc, OutboxProperties properties, ObjectProvider<TraceParentSource> trace) {
		return new OutboxWriter(jdbc, properties.table(), OutboxWakeUp.udp(properties.wakeUpAddress()),
				trace.getIfAvailable(TraceParentSource::none));
	}

	/** The backlog's gauge, in a service with metrics. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "io.micrometer.core.instrument.binder.MeterBinder")
	static class Backlog {

		@Bean
		@ConditionalOnMissingBean
		OutboxBacklog outboxBacklog(JdbcClient jdbc, OutboxProperties properties, ObjectProvider<Clock> clock) {
			return new OutboxBacklog(jdbc, properties.table(), clock.getIfAvailable(Clock::systemUTC),
					properties.backlogInterval());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "io.micrometer.tracing.Tracer")
	static class Tracing {

		// the tracer is looked up when the writer is made, not when this is evaluated, so
		// the order of the auto-configurations does not matter
		@Bean
		@ConditionalOnMissingBean
		TraceParentSource outboxTraceParentSource(ObjectProvider<io.micrometer.tracing.Tracer> tracer) {
			io.micrometer.tracing.Tracer found = tracer.getIfAvailable();
			return (found != null) ? new MicrometerTraceParentSource(found) : TraceParentSource.none();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = { "org.flywaydb.core.Flyway",
			"org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy" })
	static class Schema {

		@Bean
		@ConditionalOnMissingBean
		FlywayMigrationStrategy outboxSchemaAfterServiceMigrations(OutboxProperties properties,
				ObjectProvider<MovedOutboxMigrations> moved, ObjectProvider<OutboxTable> otherTables) {
			return (flyway) -> MigrationLock.around(flyway.getConfiguration().getDataSource(), () -> {
				moved.ifAvailable((migrations) -> migrations.adopt(flyway));
				flyway.migrate();
				OutboxSchema.migrate(flyway.getConfiguration().getDataSource(), properties.table());
				otherTables.orderedStream()
					.forEach((other) -> OutboxSchema.migrate(flyway.getConfiguration().getDataSource(), other.name()));
			});
		}

	}

}
