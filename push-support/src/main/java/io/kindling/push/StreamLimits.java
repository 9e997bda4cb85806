package io.kindling.push;

import java.time.Duration;

import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * What one principal (a session, a user) may hold of the event streams: each open stream
 * is a connection and a thread's worth of work, so both are bounded
 * ({@code kindling.web.*}).
 *
 * @param maxStreamsPerPrincipal open event streams per session or user, counted across
 * instances; one more is refused with 429
 * @param streamTicketsPerMinute stream tickets a session or user may be issued per
 * minute, across instances; one more is refused with 429
 * @param streamLease how long an open stream counts without its instance renewing it;
 * each instance renews its streams every third of it, so a dead instance's streams stop
 * counting within this
 */
@Validated
@ConfigurationProperties("kindling.web")
public record StreamLimits(@DefaultValue("4") @Min(1) int maxStreamsPerPrincipal,
		@DefaultValue("20") @Min(1) int streamTicketsPerMinute, @DefaultValue("30s") Duration streamLease) {

	public StreamLimits {
		if (streamLease.compareTo(Duration.ofSeconds(3)) < 0) {
			throw new IllegalArgumentException("kindling.web.stream-lease must be at least 3s, was " + streamLease);
		}
	}

}
