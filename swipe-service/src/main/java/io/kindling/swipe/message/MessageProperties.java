package io.kindling.swipe.message;

import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * A match's messages ({@code kindling.swipe.messages.*}).
 *
 * @param perSecond messages one user may send each second, across all their matches and
 * devices, once a burst is spent; 0 = no limit
 * @param burst messages one user may send at once
 * @param writers threads that store messages in groups, each its own share of the
 * matches, each one connection while it writes
 */
@Validated
@ConfigurationProperties("kindling.swipe.messages")
record MessageProperties(@DefaultValue("2") @Min(0) int perSecond, @DefaultValue("20") @Min(1) int burst,
		@DefaultValue("2") @Min(1) int writers) {

}
