package io.kindling.matching.room;

import jakarta.validation.constraints.Pattern;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Where the {@code room_outbox} rows' after-commit wake-up goes
 * ({@code kindling.outbox.*}).
 *
 * @param wakeUpAddress the relays' UDP {@code host:port} list, comma separated; empty
 * turns the wake-up off and the relays find the rows by polling
 */
@ConfigurationProperties("kindling.outbox")
@Validated
public record OutboxWakeUpProperties(
		@DefaultValue("127.0.0.1:8083") @Pattern(regexp = "|[^,\\s]+:\\d{1,5}(\\s*,\\s*[^,\\s]+:\\d{1,5})*",
				message = "must be host:port[,host:port…] or empty") String wakeUpAddress) {

}
