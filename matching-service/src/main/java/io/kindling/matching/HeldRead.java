package io.kindling.matching;

import java.time.Duration;
import java.time.Instant;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * A small table read whole and trusted for {@code ttl}: every join asks the topics and
 * the bans, which are few rows that rarely change. The first call after the TTL reads
 * again; callers arriving meanwhile wait for that one read instead of each reading.
 *
 * @param <T> what one read produces
 */
public final class HeldRead<T> {

	private final Duration ttl;

	private final Function<Instant, T> read;

	private volatile @Nullable Held<T> held;

	/**
	 * @param ttl how long a read is trusted
	 * @param read reads the table as of the instant given
	 */
	public HeldRead(Duration ttl, Function<Instant, T> read) {
		this.ttl = ttl;
		this.read = read;
	}

	/**
	 * What the last read found, read again first if it is {@code ttl} old at {@code now}.
	 */
	public T get(Instant now) {
		Held<T> known = this.held;
		if (known == null || !fresh(known, now)) {
			synchronized (this) {
				known = this.held;
				if (known == null || !fresh(known, now)) {
					known = new Held<>(this.read.apply(now), now);
					this.held = known;
				}
			}
		}
		return known.value();
	}

	/**
	 * The next {@link #get} reads again, whatever the TTL. Under the lock: a read begun
	 * before the change being told must not store its stale answer after this.
	 */
	public synchronized void forget() {
		this.held = null;
	}

	private boolean fresh(Held<T> known, Instant now) {
		return now.isBefore(known.readAt().plus(this.ttl));
	}

	private record Held<T>(T value, Instant readAt) {

	}

}
