package io.kindling.swipe.profile;

import jakarta.validation.constraints.Min;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * @param locationChangesPerHour moves to another grid cell per user in any hour; past it,
 * {@code PUT /api/profile} with a new location is {@code 429}; 0 = no limit
 */
@Validated
@ConfigurationProperties("kindling.swipe")
record ProfileProperties(@DefaultValue("10") @Min(0) int locationChangesPerHour) {

}
