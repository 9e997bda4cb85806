package io.kindling.swipe.deck;

import java.time.Duration;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The read side's settings under {@code kindling.swipe} (the swipe write path binds its
 * own record on the same prefix).
 *
 * @param superLikeTtl how long a super like stays at the top of its target's deck
 * @param boost boosts
 * @param bloom the swipe history filter
 * @param deck deck assembly
 */
@Validated
@ConfigurationProperties("kindling.swipe")
public record DiscoveryProperties(@DefaultValue("24h") @NotNull Duration superLikeTtl, @DefaultValue @Valid Boost boost,
		@DefaultValue @Valid Bloom bloom, @DefaultValue @Valid Deck deck) {

	/**
	 * @param duration how long a boost lasts
	 * @param cooldown one boost per user per this long, counted from the boost's start
	 * @param cellPrecision geohash length of {@code boosted_users:{<prefix>}} (4 ≈ 39 ×
	 * 20 km)
	 */
	public record Boost(@DefaultValue("30m") @NotNull Duration duration,
			@DefaultValue("12h") @NotNull Duration cooldown, @DefaultValue("4") @Min(1) @Max(9) int cellPrecision) {

	}

	/**
	 * @param mode {@code auto} (module if {@code BF.RESERVE} exists), {@code module} or
	 * {@code bitmap}
	 * @param capacity swipes per bucket; a full bucket starts the next one
	 * @param errorRate false-positive rate of one bucket at capacity
	 */
	public record Bloom(@DefaultValue("auto") @NotNull Mode mode, @DefaultValue("5000") @Min(100) long capacity,
			@DefaultValue("0.01") @DecimalMin("0.0001") @DecimalMax("0.5") double errorRate) {

		public enum Mode {

			AUTO, MODULE, BITMAP

		}

	}

	/**
	 * @param size cards per assembled deck
	 * @param ttl how long an assembled deck is kept in Redis
	 * @param organicPerBoost organic cards before each boosted one
	 * @param maxBoosted boosted cards per deck at most
	 * @param maxPool candidate rows read from MySQL per assembly at most
	 */
	public record Deck(@DefaultValue("200") @Min(1) @Max(1000) int size, @DefaultValue("1h") @NotNull Duration ttl,
			@DefaultValue("5") @Min(1) int organicPerBoost, @DefaultValue("2") @Min(0) int maxBoosted,
			@DefaultValue("50000") @Min(100) int maxPool) {

	}

}
