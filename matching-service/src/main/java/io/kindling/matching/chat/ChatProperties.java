package io.kindling.matching.chat;

import java.time.Duration;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * A room's conversation ({@code kindling.matching.chat.*}).
 *
 * @param history entries a socket opened without {@code ?after=} is sent first, and about
 * how many the room's stream keeps (Redis trims it a little above)
 * @param messagesPerSecond messages one member may send each second once a burst is
 * spent, across all their sockets
 * @param burst messages one member may send at once
 * @param grace how long a room's messages stay in Redis after the room's life (its last
 * leave, or its seats' end), for a reconnecting socket and a report
 */
@Validated
@ConfigurationProperties("kindling.matching.chat")
record ChatProperties(@DefaultValue("500") @Min(1) int history, @DefaultValue("5") @Min(1) int messagesPerSecond,
		@DefaultValue("10") @Min(1) int burst, @DefaultValue("10m") @NotNull Duration grace) {

}
