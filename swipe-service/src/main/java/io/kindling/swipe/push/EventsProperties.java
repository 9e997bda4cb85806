package io.kindling.swipe.push;

import java.time.Duration;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * @param retained events kept per user for clients that reconnect with
 * {@code Last-Event-ID}; older ones are trimmed as new ones come
 * @param retention a user's log is dropped this long after its last event
 * @param streamTimeout an open stream is ended after this long (the client reconnects)
 */
@Validated
@ConfigurationProperties("kindling.swipe.events")
record EventsProperties(@DefaultValue("100") @Min(1) int retained, @DefaultValue("24h") @NotNull Duration retention,
		@DefaultValue("30m") @NotNull Duration streamTimeout) {

}
