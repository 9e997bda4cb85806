package io.kindling.swipe;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** Real time plus an offset that tests move forward, so time rules never need a sleep. */
public final class MutableClock extends Clock {

	private final AtomicReference<Duration> offset = new AtomicReference<>(Duration.ZERO);

	public void advance(Duration by) {
		this.offset.accumulateAndGet(by, Duration::plus);
	}

	@Override
	public ZoneId getZone() {
		return ZoneOffset.UTC;
	}

	@Override
	public Clock withZone(ZoneId zone) {
		throw new UnsupportedOperationException("the service's clock is UTC");
	}

	@Override
	public Instant instant() {
		return Instant.now().plus(this.offset.get());
	}

}
