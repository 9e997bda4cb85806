package io.kindling.swipe.swipe;

import java.time.Duration;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The swipe write path's settings under {@code kindling.swipe} (the deck binds its own
 * record on the same prefix for its keys).
 *
 * @param dailyLikes likes per user per UTC day, 0 = no limit
 * @param dailySuperLikes super likes per user per UTC day, 0 = no limit
 * @param reconciler how swipes left unfinished by a crash are completed
 */
@Validated
@ConfigurationProperties("kindling.swipe")
public record SwipeProperties(@DefaultValue("100") @Min(0) int dailyLikes,
		@DefaultValue("3") @Min(0) int dailySuperLikes, @DefaultValue @Valid Reconciler reconciler) {

	/**
	 * This record's bean in a SpEL expression, for the {@code @Scheduled} task that reads
	 * its interval from it: {@code "#{" + SwipeProperties.BEAN +
	 * ".reconciler().interval()}"}.
	 */
	static final String BEAN = "@'kindling.swipe-io.kindling.swipe.swipe.SwipeProperties'";

	/**
	 * @param after a swipe still unfinished this long after it was stored is taken over
	 * @param interval how often each instance looks for such swipes
	 * @param batchSize how many it finishes per look
	 */
	public record Reconciler(@DefaultValue("10s") @NotNull Duration after,
			@DefaultValue("5s") @NotNull Duration interval, @DefaultValue("200") @Min(1) int batchSize) {

	}

}
