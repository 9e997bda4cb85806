package io.kindling.swipe.deck;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** A clock the tests move by hand, so time rules are tested without sleeping. */
public final class TestClock extends Clock {

	private final AtomicReference<Instant> now;

	public TestClock(Instant start) {
		this.now = new AtomicReference<>(start);
	}

	public void advance(Duration by) {
		this.now.updateAndGet((instant) -> instant.plus(by));
	}

	@Override
	public ZoneId getZone() {
		return ZoneOffset.UTC;
	}

	@Override
	public Clock withZone(ZoneId zone) {
		return this;
	}

	@Override
	public Instant instant() {
		return this.now.get();
	}

}
