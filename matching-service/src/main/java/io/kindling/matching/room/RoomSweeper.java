package io.kindling.matching.room;

import java.util.Set;
import java.util.concurrent.ScheduledFuture;

import io.kindling.matching.MatchingProperties;
import io.kindling.matching.queue.MatchQueue;
import io.kindling.matching.queue.RedisKeys;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.stereotype.Component;

/**
 * Visits every active queue each {@code sweep-interval} and runs the forming script, so
 * the fallback and the timeout happen with nobody polling. Several instances sweeping at
 * once stay correct: it is the same atomic script a poll runs.
 */
@Component
class RoomSweeper implements SmartLifecycle {

	private static final Logger log = LoggerFactory.getLogger(RoomSweeper.class);

	/**
	 * A queue that keeps forming rooms yields to the others after this many per sweep.
	 */
	private static final int MOST_ROOMS_PER_QUEUE = 200;

	private final StringRedisTemplate redis;

	private final RoomFormer former;

	private final TaskScheduler scheduler;

	private final MatchingProperties properties;

	private volatile @Nullable ScheduledFuture<?> task;

	RoomSweeper(StringRedisTemplate redis, RoomFormer former, TaskScheduler scheduler, MatchingProperties properties) {
		this.redis = redis;
		this.former = former;
		this.scheduler = scheduler;
		this.properties = properties;
	}

	/** One sweep over the active queues. */
	void sweep() {
		Set<String> queues = this.redis.opsForSet().members(RedisKeys.ACTIVE_QUEUES);
		if (queues == null) {
			return;
		}
		for (String key : queues) {
			try {
				this.former.formAll(MatchQueue.fromKey(key), MOST_ROOMS_PER_QUEUE);
			}
			catch (RuntimeException ex) {
				// one broken queue (or a Redis hiccup) must not stop the sweeper; the
				// next
				// sweep retries
				log.warn("Sweeping {} failed", key, ex);
			}
		}
	}

	@Override
	public void start() {
		this.task = this.scheduler.scheduleWithFixedDelay(this::sweepSafely, this.properties.sweepInterval());
	}

	private void sweepSafely() {
		try {
			sweep();
		}
		catch (RuntimeException ex) {
			log.warn("Sweep failed", ex);
		}
	}

	@Override
	public void stop() {
		ScheduledFuture<?> running = this.task;
		if (running != null) {
			running.cancel(false);
		}
		this.task = null;
	}

	@Override
	public boolean isRunning() {
		return this.task != null;
	}

}
