package io.kindling.swipe.security;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The operators' API's token, under {@code kindling.swipe} (other records bind their own
 * keys of that prefix).
 *
 * @param adminToken what {@code /api/admin/**} callers send as
 * {@code Authorization: Bearer}; while empty that API answers 401 to everyone
 */
@ConfigurationProperties("kindling.swipe")
public record OperatorProperties(@DefaultValue("") String adminToken) {

}
