package io.kindling.matching.ratelimit;

import io.kindling.support.web.Refusal;

import org.springframework.http.HttpStatus;

/** Too many requests from one address in this window. */
public enum RateLimitRefusals implements Refusal {

	RATE_LIMITED("rate-limited", HttpStatus.TOO_MANY_REQUESTS, "Too many requests");

	private final Type type;

	RateLimitRefusals(String slug, HttpStatus status, String title) {
		this.type = new Type(slug, status, title);
	}

	@Override
	public Type type() {
		return this.type;
	}

}
