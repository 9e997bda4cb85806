package io.kindling.support.web;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How much work one instance takes on at once ({@code kindling.web.overload.*}); past it
 * a request is refused at once with {@code 503 overloaded}.
 *
 * @param limit the most requests one instance works on at once; {@code 0} takes every
 * request (no limit). It must stay below the server's worker threads, which answer the
 * refusals and the health checks
 * @param adaptive whether the limit follows the latency of the answers, between
 * {@code minLimit} and {@code limit}: it shrinks while answers take longer than they did
 * unloaded and grows back while they do not; false holds it at {@code limit}
 * @param minLimit the least the adaptive limit goes down to (the limit itself, if that is
 * lower)
 * @param retryAfter what a refusal's {@code Retry-After} says, in whole seconds
 */
@ConfigurationProperties("kindling.web.overload")
public record OverloadProperties(@DefaultValue("16") int limit, @DefaultValue("true") boolean adaptive,
		@DefaultValue("4") int minLimit, @DefaultValue("1s") Duration retryAfter) {

	public OverloadProperties {
		if (limit < 0) {
			throw new IllegalArgumentException("kindling.web.overload.limit must be 0 (off) or more, was " + limit);
		}
		if (minLimit < 1) {
			throw new IllegalArgumentException("kindling.web.overload.min-limit must be 1 or more, was " + minLimit);
		}
		if (retryAfter.compareTo(Duration.ofSeconds(1)) < 0) {
			throw new IllegalArgumentException(
					"kindling.web.overload.retry-after is whole seconds, at least 1s, was " + retryAfter);
		}
	}

	/** Whether requests are limited at all. */
	public boolean enabled() {
		return this.limit > 0;
	}

}
