package io.kindling.outbox;

import java.time.Duration;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * A service's outbox ({@code kindling.outbox.*}); naming the table is what gives a
 * service its {@link OutboxWriter} and the table's migrations.
 *
 * @param table the outbox table in the service's database; the relay's source for it
 * names the same table
 * @param wakeUpAddress the relays' UDP {@code host:port} list, comma separated, rung
 * after each commit that wrote outbox rows; empty turns the wake-up off and the relays
 * find the rows by polling
 * @param backlogInterval how often at most the outbox's backlog gauge reads the table (at
 * a scrape)
 */
@ConfigurationProperties("kindling.outbox")
@Validated
public record OutboxProperties(@NotNull @Pattern(regexp = TableName.PATTERN) String table,
		@DefaultValue("127.0.0.1:8083") @Pattern(regexp = "|[^,\\s]+:\\d{1,5}(\\s*,\\s*[^,\\s]+:\\d{1,5})*",
				message = "must be host:port[,host:port…] or empty") String wakeUpAddress,
		@DefaultValue("10s") @NotNull Duration backlogInterval) {

}
