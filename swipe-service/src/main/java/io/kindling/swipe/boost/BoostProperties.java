package io.kindling.swipe.boost;

import java.time.Duration;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * @param duration how long a boost lasts
 * @param cooldown one boost per user per this long, counted from the boost's start
 * @param cellPrecision geohash length of {@code boosted_users:{<prefix>}} (4 ≈ 39 × 20
 * km)
 * @param expiryInterval how often each instance records the views of boosts that have
 * expired
 */
@Validated
@ConfigurationProperties("kindling.swipe.boost")
record BoostProperties(@DefaultValue("30m") @NotNull Duration duration, @DefaultValue("12h") @NotNull Duration cooldown,
		@DefaultValue("4") @Min(1) @Max(9) int cellPrecision, @DefaultValue("10s") @NotNull Duration expiryInterval) {

	/**
	 * This record's bean in a SpEL expression, for the {@code @Scheduled} task that reads
	 * its interval from it: {@code "#{" + BoostProperties.BEAN + ".expiryInterval()}"}.
	 */
	static final String BEAN = "@'kindling.swipe.boost-io.kindling.swipe.boost.BoostProperties'";

}
