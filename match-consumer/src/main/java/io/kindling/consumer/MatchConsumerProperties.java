package io.kindling.consumer;

import java.time.Duration;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the match consumer ({@code kindling.match-consumer.*}).
 *
 * @param retry how a record that failed is tried again before it is dead-lettered
 */
@Validated
@ConfigurationProperties("kindling.match-consumer")
public record MatchConsumerProperties(@DefaultValue @Valid Retry retry) {

	/**
	 * Exponential back-off: the first retry after {@code initialInterval}, each next one
	 * twice as late, at most {@code maxInterval}.
	 *
	 * @param initialInterval the delay before the first retry
	 * @param maxInterval the longest delay between two tries
	 * @param maxRetries retries of a failing record before it goes to the dead-letter
	 * topic; while the database is unreachable a record is retried without limit instead
	 */
	public record Retry(@DefaultValue("500ms") Duration initialInterval, @DefaultValue("10s") Duration maxInterval,
			@DefaultValue("4") @Min(0) int maxRetries) {

	}

}
