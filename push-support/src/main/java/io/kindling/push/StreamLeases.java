package io.kindling.push;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

import io.kindling.redis.LuaScript;
import io.kindling.support.web.ProblemType;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.scheduling.TaskScheduler;

/**
 * Counts each principal's open event streams across instances, so that none holds more
 * than {@code kindling.web.max-streams-per-principal}: one more is refused with
 * {@code 429 too-many-streams} (the newest is refused rather than the oldest closed: a
 * refusal needs no instance to reach another's stream). Each stream holds a lease in
 * Redis ({@code <service>:streams:{<principal hash>}}) that its instance renews every
 * third of {@code kindling.web.stream-lease}, after its streams wrote a comment to their
 * clients (so a client that went away is noticed then, and its lease released); the
 * streams of an instance that died stop counting when their leases end. A principal's
 * leases are renewed and released here in turn, never at once: a renewal that read a
 * lease just before its stream closed would otherwise put it back in Redis after its
 * release took it out, where it would count until it ended although nobody renews it.
 */
public final class StreamLeases implements SmartLifecycle {

	private static final Logger log = LoggerFactory.getLogger(StreamLeases.class);

	private final LuaScript<Long> acquire = LuaScript.load("acquire_stream_lease", Long.class);

	private final LuaScript<Long> renew = LuaScript.load("renew_stream_leases", Long.class);

	private final StringRedisTemplate redis;

	private final Clock clock;

	private final TaskScheduler scheduler;

	private final StreamLimits limits;

	private final String keyPrefix;

	/** The leases this instance holds, by key. */
	private final Map<String, Set<String>> held = new ConcurrentHashMap<>();

	/**
	 * Taken to renew or release the leases of one key, by the key's hash: a few keys
	 * share each, which only makes them wait on one another's call to Redis.
	 */
	private final ReentrantLock[] turns = new ReentrantLock[64];

	private final List<Runnable> beforeRenewal = new CopyOnWriteArrayList<>();

	private final AtomicBoolean renewing = new AtomicBoolean();

	private volatile @Nullable ScheduledFuture<?> renewal;

	/**
	 * @param keyPrefix put before {@code {<principal hash>}}, such as
	 * {@code matching:streams:}
	 */
	public StreamLeases(StringRedisTemplate redis, Clock clock, TaskScheduler scheduler, StreamLimits limits,
			String keyPrefix) {
		this.redis = redis;
		this.clock = clock;
		this.scheduler = scheduler;
		this.limits = limits;
		this.keyPrefix = keyPrefix;
		for (int i = 0; i < this.turns.length; i++) {
			this.turns[i] = new ReentrantLock();
		}
	}

	/**
	 * Counts a new stream of the principal.
	 * @throws io.kindling.support.web.Refused {@code too-many-streams}, with
	 * {@code Retry-After} until the first of its leases ends, when it holds the most it
	 * may
	 */
	public Lease acquire(String principal) {
		String key = key(this.keyPrefix, principal);
		String id = UUID.randomUUID().toString();
		long now = this.clock.millis();
		Long wait = this.acquire.run(this.redis, List.of(key), String.valueOf(now), id,
				String.valueOf(now + this.limits.streamLease().toMillis()),
				String.valueOf(this.limits.maxStreamsPerPrincipal()));
		if (wait != null && wait > 0) {
			throw ProblemType.TOO_MANY_STREAMS.refused(
					"at most " + this.limits.maxStreamsPerPrincipal()
							+ " event streams may be open at once; close one, or retry when one has closed",
					Duration.ofMillis(wait));
		}
		// added in one step with finding the key's set: a release that empties the set
		// drops it, and an id added to a set already dropped would never be renewed
		this.held.compute(key, (k, ids) -> {
			Set<String> held = (ids != null) ? ids : ConcurrentHashMap.newKeySet();
			held.add(id);
			return held;
		});
		return new Lease(key, id);
	}

	/**
	 * The stream closed: it stops counting. If Redis does not answer, its lease ends by
	 * itself, since nobody renews it.
	 */
	public void release(Lease lease) {
		ReentrantLock turn = turnOf(lease.key());
		turn.lock();
		try {
			this.held.computeIfPresent(lease.key(), (key, ids) -> {
				ids.remove(lease.id());
				return ids.isEmpty() ? null : ids;
			});
			this.redis.opsForZSet().remove(lease.key(), lease.id());
		}
		catch (DataAccessException ex) {
			log.debug("Could not release a stream's lease; it ends by itself", ex);
		}
		finally {
			turn.unlock();
		}
	}

	/**
	 * Runs {@code task} before each renewal: the streams write to each client then, so
	 * that one that went away is noticed, and its lease released rather than renewed.
	 */
	public void beforeRenewal(Runnable task) {
		this.beforeRenewal.add(task);
	}

	/** Renews every lease held here, for another {@code stream-lease}. */
	public void renew() {
		this.beforeRenewal.forEach(Runnable::run);
		String until = String.valueOf(this.clock.millis() + this.limits.streamLease().toMillis());
		for (String key : this.held.keySet()) {
			ReentrantLock turn = turnOf(key);
			turn.lock();
			try {
				renew(key, until);
			}
			finally {
				turn.unlock();
			}
		}
	}

	/** Renews the leases of one key held here; its turn is taken. */
	private void renew(String key, String until) {
		Set<String> ids = this.held.get(key);
		if (ids == null || ids.isEmpty()) {
			return;
		}
		List<String> args = new ArrayList<>();
		args.add(until);
		args.add(String.valueOf(this.limits.streamLease().toMillis()));
		args.addAll(ids);
		try {
			this.renew.run(this.redis, List.of(key), args.toArray(String[]::new));
		}
		catch (DataAccessException ex) {
			// the next round tries again; a lease that ends meanwhile is counted again
			// then
			log.warn("Could not renew the leases of open event streams", ex);
		}
	}

	private ReentrantLock turnOf(String key) {
		return this.turns[Math.floorMod(key.hashCode(), this.turns.length)];
	}

	/** The key of a principal's leases: hashed, so no session token is part of a key. */
	static String key(String prefix, String principal) {
		try {
			byte[] digest = MessageDigest.getInstance("SHA-256").digest(principal.getBytes(StandardCharsets.UTF_8));
			return prefix + "{" + HexFormat.of().formatHex(digest, 0, 16) + "}";
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("every JDK has SHA-256", ex);
		}
	}

	@Override
	public void start() {
		// off the shared scheduler's thread (the rooms' sweeper runs there), one round at
		// a time
		this.renewal = this.scheduler.scheduleAtFixedRate(() -> {
			if (this.renewing.compareAndSet(false, true)) {
				Thread.ofVirtual().name("stream-leases").start(() -> {
					try {
						renew();
					}
					finally {
						this.renewing.set(false);
					}
				});
			}
		}, this.limits.streamLease().dividedBy(3));
	}

	@Override
	public void stop() {
		ScheduledFuture<?> renewing = this.renewal;
		if (renewing != null) {
			renewing.cancel(false);
		}
		this.renewal = null;
	}

	@Override
	public boolean isRunning() {
		return this.renewal != null;
	}

	/** One open stream's place in its principal's count. */
	public record Lease(String key, String id) {

	}

}
