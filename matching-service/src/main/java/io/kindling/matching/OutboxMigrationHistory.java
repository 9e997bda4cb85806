package io.kindling.matching;

import java.util.Map;

import io.kindling.outbox.MovedOutboxMigrations;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@code V1} made {@code room_outbox} and {@code V2} dropped one of its indexes, until
 * the outbox module's own migrations took the table over and both lost those lines; a
 * database that ran them before holds these checksums of their former text.
 */
@Configuration(proxyBeanMethods = false)
class OutboxMigrationHistory {

	@Bean
	MovedOutboxMigrations movedOutboxMigrations() {
		return new MovedOutboxMigrations(Map.of("1", -1793970653, "2", 1979516948));
	}

}
