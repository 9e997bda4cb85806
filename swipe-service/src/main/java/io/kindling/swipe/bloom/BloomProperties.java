package io.kindling.swipe.bloom;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * @param mode {@code auto} (module if {@code BF.RESERVE} exists), {@code module} or
 * {@code bitmap}
 * @param capacity swipes per bucket; a full bucket starts the next one
 * @param errorRate false-positive rate of one bucket at capacity
 */
@Validated
@ConfigurationProperties("kindling.swipe.bloom")
record BloomProperties(@DefaultValue("auto") @NotNull Mode mode, @DefaultValue("5000") @Min(100) long capacity,
		@DefaultValue("0.01") @DecimalMin("0.0001") @DecimalMax("0.5") double errorRate) {

	enum Mode {

		AUTO, MODULE, BITMAP

	}

}
