package io.kindling.swipe.geo;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * @param locationCellKm the side of the grid cells that every distance shown to another
 * person is computed between (their centres): nobody learns a position more precisely
 * than this. At least 0.5 km, since a finer grid gives the trilateration attack back.
 */
@Validated
@ConfigurationProperties("kindling.swipe")
public record GridProperties(@DefaultValue("1.0") @DecimalMin("0.5") @DecimalMax("50") double locationCellKm) {

}
