package io.kindling.support.web;

import java.time.Duration;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * A request refused for one of the {@link Refusal}s a service declares; the web edge
 * answers it as that refusal's problem detail, with this message as the {@code detail}.
 */
public final class Refused extends RuntimeException {

	private final Refusal refusal;

	private final @Nullable Duration retryAfter;

	Refused(Refusal refusal, String detail, @Nullable Duration retryAfter) {
		// an answer, not a fault: nobody reads its stack trace, so none is filled in
		super(detail, null, false, false);
		this.refusal = refusal;
		this.retryAfter = retryAfter;
	}

	public Refusal refusal() {
		return this.refusal;
	}

	/** When to try again, for a refusal answered with {@code Retry-After}. */
	public Optional<Duration> retryAfter() {
		return Optional.ofNullable(this.retryAfter);
	}

}
