package io.kindling.swipe.deck;

import java.time.Duration;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * @param size cards per assembled deck
 * @param ttl how long an assembled deck is kept in Redis
 * @param organicPerBoost organic cards before each boosted one
 * @param maxBoosted boosted cards per deck at most
 * @param maxPool ranked candidates of a search area considered per deck at most
 * @param scoreFlushInterval how often queued desirability updates are applied
 * @param refillBelow when a page leaves fewer cards than this in the deck, the next deck
 * is assembled in the background and appended (0 = never: the page after the last card
 * assembles)
 * @param maxExpandKm how far a deck goes beyond the viewer's distance preference once the
 * people within it are used up, for a viewer who asked for that ({@code expand_when_out})
 */
@Validated
@ConfigurationProperties("kindling.swipe.deck")
record DeckProperties(@DefaultValue("200") @Min(1) @Max(1000) int size, @DefaultValue("1h") @NotNull Duration ttl,
		@DefaultValue("5") @Min(1) int organicPerBoost, @DefaultValue("2") @Min(0) int maxBoosted,
		@DefaultValue("50000") @Min(100) int maxPool, @DefaultValue("200ms") @NotNull Duration scoreFlushInterval,
		@DefaultValue("100") @Min(0) int refillBelow, @DefaultValue("500") @Min(1) @Max(20000) int maxExpandKm,
		@DefaultValue("30s") @NotNull Duration rosterTtl, @DefaultValue("1000000") @Min(0) long rosterMaxPeople) {

	/**
	 * This record's bean in a SpEL expression, for the {@code @Scheduled} task that reads
	 * its interval from it: {@code "#{" + DeckProperties.BEAN +
	 * ".scoreFlushInterval()}"}.
	 */
	static final String BEAN = "@'kindling.swipe.deck-io.kindling.swipe.deck.DeckProperties'";

}
