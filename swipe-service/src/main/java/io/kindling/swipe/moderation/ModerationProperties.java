package io.kindling.swipe.moderation;

import java.time.Duration;

import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Moderation's settings under {@code kindling.swipe} (other records bind their own keys
 * of that prefix).
 *
 * @param banRefresh how often each instance reads the bans again: a ban made or lifted on
 * another instance bites here within this long (on the instance that made it, at once)
 */
@Validated
@ConfigurationProperties("kindling.swipe")
public record ModerationProperties(@DefaultValue("5s") @NotNull Duration banRefresh) {

	/**
	 * This record's bean in a SpEL expression, for the {@code @Scheduled} task that reads
	 * its interval from it: {@code "#{" + ModerationProperties.BEAN + ".banRefresh()}"}.
	 */
	static final String BEAN = "@'kindling.swipe-io.kindling.swipe.moderation.ModerationProperties'";

}
