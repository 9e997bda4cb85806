package io.kindling.infra.test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The clock tests put in place of the services' one clock and move forward, so time rules
 * are tested without sleeping. It stands still at its start, or {@link #ticking() ticks}
 * with the system clock; either way {@link #advance} moves it.
 */
public final class MutableClock extends Clock {

	private final Clock base;

	private final AtomicReference<Duration> offset = new AtomicReference<>(Duration.ZERO);

	/** A clock that stands at {@code start} until it is advanced. */
	public MutableClock(Instant start) {
		this(Clock.fixed(start, ZoneOffset.UTC));
	}

	private MutableClock(Clock base) {
		this.base = base;
	}

	/** A clock that runs with the system clock, plus whatever it was advanced by. */
	public static MutableClock ticking() {
		return new MutableClock(Clock.systemUTC());
	}

	public void advance(Duration by) {
		this.offset.accumulateAndGet(by, Duration::plus);
	}

	@Override
	public Instant instant() {
		return this.base.instant().plus(this.offset.get());
	}

	@Override
	public ZoneId getZone() {
		return ZoneOffset.UTC;
	}

	@Override
	public Clock withZone(ZoneId zone) {
		return this;
	}

}
