package io.kindling.relay;

import io.kindling.infra.servers.MariaDbServer;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.outbox.OutboxSchema;
import io.kindling.relay.source.OutboxSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A relay publishes a table only in the shape it reads: one its service has not migrated
 * yet (no {@code traceparent} column) waits, visibly, until that service's next start
 * migrates it.
 */
@RealServers(value = Server.MARIADB, database = "relay_readiness_it")
class SourceReadinessIT {

	@Test
	void aTableOfTheFormerShapeWaitsForItsServiceToMigrateIt() {
		try (OutboxDatabase db = new OutboxDatabase("relay_readiness", "match_outbox");
				OutboxSource source = new OutboxSource(new RelayProperties.Source("matches", db.jdbcUrl(),
						MariaDbServer.USER, MariaDbServer.PASSWORD, "match_outbox", "readiness.matches"), 16, 2)) {
			// the table as the outbox's first migration left it
			db.jdbc.sql("ALTER TABLE match_outbox DROP COLUMN traceparent").update();
			db.jdbc.sql("DELETE FROM " + OutboxSchema.historyTable("match_outbox") + " WHERE version = '2'").update();

			assertThat(source.ready()).isFalse();
			assertThat(source.state()).isEqualTo(
					"waiting for table match_outbox to have its traceparent column (its service adds it when it starts)");

			// the service starts and migrates it
			OutboxSchema.migrate(db.dataSource, "match_outbox");
			assertThat(source.ready()).isTrue();
			assertThat(source.state()).isEqualTo("publishing");
		}
	}

}
