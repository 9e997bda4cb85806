package io.kindling.swipe.boost;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import io.kindling.swipe.web.ProblemException;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

/** One boost per cooldown period: the next one is possible at {@code availableAt}. */
class BoostCooldown extends ProblemException {

	BoostCooldown(Instant availableAt, Duration retryAfter) {
		super(HttpStatus.TOO_MANY_REQUESTS, "Boost cooldown", "The next boost is possible at " + availableAt + ".", Map
			.of(HttpHeaders.RETRY_AFTER,
					String.valueOf(Math.max(1, retryAfter.toSeconds() + ((retryAfter.toMillisPart() > 0) ? 1 : 0)))));
	}

}
