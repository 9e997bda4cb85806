package io.kindling.outbox;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import io.kindling.infra.test.MutableClock;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The writer's gauge of its outbox's backlog: the age of the oldest row no relay has
 * published, parked ones left out, read from the table at most once per interval.
 */
@RealServers(Server.MARIADB)
class OutboxBacklogIT {

	@Test
	void theGaugeIsTheAgeOfTheOldestUnpublishedRowReadOncePerInterval() {
		try (TestDatabase db = new TestDatabase("outbox_backlog")) {
			OutboxSchema.migrate(db.dataSource, "service_outbox");
			MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:00:00Z"));
			SimpleMeterRegistry registry = new SimpleMeterRegistry();
			new OutboxBacklog(db.jdbc, "service_outbox", clock, Duration.ofSeconds(10)).bindTo(registry);
			TimeGauge age = registry.get("kindling.outbox.oldest.unpublished.age")
				.tag("table", "service_outbox")
				.timeGauge();
			assertThat(age.value()).as("nothing written").isZero();

			Instant written = clock.instant();
			append(db, written);
			clock.advance(Duration.ofSeconds(5));
			assertThat(age.value()).as("read 5 s ago, when the table was empty").isZero();
			clock.advance(Duration.ofSeconds(35));
			assertThat(age.value(java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(40);

			db.jdbc.sql("UPDATE service_outbox SET published_at = NOW(6)").update();
			append(db, clock.instant().minusSeconds(3));
			db.jdbc.sql("UPDATE service_outbox SET parked_at = NOW(6) WHERE published_at IS NULL").update();
			clock.advance(Duration.ofSeconds(10));
			assertThat(age.value()).as("published and parked rows are no backlog").isZero();
		}
	}

	private static void append(TestDatabase db, Instant at) {
		OutboxWriter writer = new OutboxWriter(db.jdbc, "service_outbox");
		db.transactions
			.executeWithoutResult((status) -> writer.append(new OutboxEvent(UUID.randomUUID(), "A", "k1", "{}", at)));
	}

}
