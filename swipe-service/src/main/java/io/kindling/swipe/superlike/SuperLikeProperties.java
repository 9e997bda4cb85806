package io.kindling.swipe.superlike;

import java.time.Duration;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * @param superLikeTtl how long a super like stays at the top of its target's deck
 */
@Validated
@ConfigurationProperties("kindling.swipe")
record SuperLikeProperties(@DefaultValue("24h") @NotNull Duration superLikeTtl) {

}
