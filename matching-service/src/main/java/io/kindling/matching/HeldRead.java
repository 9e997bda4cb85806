package io.kindling.matching;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;

/**
 * A small table read whole and trusted for {@code ttl}: every join asks the topics and
 * the bans, which are few rows that rarely change. A Caffeine {@link LoadingCache}
 * holding one entry, whose expiry runs on the injected clock:
 * <ul>
 * <li>The first call after the TTL reads again; callers arriving meanwhile wait for that
 * one read ({@link LoadingCache#get}: a call finding the key being loaded waits for that
 * load and returns its value).</li>
 * <li>{@link #forget()} must not let a read begun before the change being told store its
 * stale answer after it. Caffeine leaves that undefined:
 * {@link com.github.benmanes.caffeine.cache.Cache#invalidate} says its behaviour is
 * undefined for an entry that is being loaded and otherwise not present. So the entry's
 * key is a generation that {@code forget()} moves on: such a read stores its answer under
 * the old generation, which no later call asks for, and it expires within
 * {@code ttl}.</li>
 * </ul>
 *
 * @param <T> what one read produces
 */
public final class HeldRead<T> {

	private final LoadingCache<Long, T> reads;

	private final AtomicLong generation = new AtomicLong();

	/**
	 * @param ttl how long a read is trusted
	 * @param clock the time the TTL is counted on, and given to {@code read}
	 * @param read reads the table as of the instant given
	 */
	public HeldRead(Duration ttl, Clock clock, Function<Instant, T> read) {
		this.reads = Caffeine.newBuilder()
			.ticker(() -> TimeUnit.MILLISECONDS.toNanos(clock.millis()))
			.expireAfterWrite(ttl)
			.build((generation) -> read.apply(clock.instant()));
	}

	/** What the last read found, read again first if it is {@code ttl} old. */
	public T get() {
		return this.reads.get(this.generation.get());
	}

	/** The next {@link #get} reads again, whatever the TTL. */
	public void forget() {
		this.reads.invalidate(this.generation.getAndIncrement());
	}

}
